/**
 * A small RFC 5545 writer for all-day events: CRLF line ends, lines folded at 75 octets (never
 * inside a UTF-8 character), TEXT values escaped (backslash, semicolon, comma, newline), a UID
 * stable across refreshes (so calendar apps update an event instead of duplicating it), DTSTAMP in
 * UTC, DTSTART/DTEND as VALUE=DATE (DTEND the day after: all-day events end exclusive).
 */

export interface AllDayEvent {
  /** Stable across refreshes: the same charge keeps its UID. */
  uid: string;
  /** YYYY-MM-DD. */
  date: string;
  summary: string;
  description?: string | undefined;
  categories?: string | undefined;
}

export interface Calendar {
  /** PRODID's product part and X-WR-CALNAME. */
  name: string;
  timeZone: string;
  /** When the feed was made: every DTSTAMP. */
  stamp: Date;
  /** How often clients should fetch it again (ISO 8601 duration: PT6H). */
  refresh: string;
  events: AllDayEvent[];
}

/** Escapes a TEXT value (RFC 5545 §3.3.11). */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** Folds one content line at 75 octets, continuing with CRLF and a space (§3.1). */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, 'utf8');
    // The first line holds 75 octets; each continuation 74 after its leading space.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

const basicDate = (date: string): string => date.replace(/-/g, '');

function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function stampOf(instant: Date): string {
  return `${instant.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
}

/** The whole calendar as text. */
export function renderCalendar(calendar: Calendar): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Exhale//Subscriptions//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(calendar.name)}`,
    `X-WR-TIMEZONE:${calendar.timeZone}`,
    `REFRESH-INTERVAL;VALUE=DURATION:${calendar.refresh}`,
    `X-PUBLISHED-TTL:${calendar.refresh}`,
  ];
  const stamp = stampOf(calendar.stamp);
  for (const event of calendar.events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(event.uid)}`,
      `DTSTAMP:${stamp}`,
      `DTSTART;VALUE=DATE:${basicDate(event.date)}`,
      `DTEND;VALUE=DATE:${basicDate(nextDay(event.date))}`,
      `SUMMARY:${escapeText(event.summary)}`,
    );
    if (event.description) lines.push(`DESCRIPTION:${escapeText(event.description)}`);
    if (event.categories) lines.push(`CATEGORIES:${escapeText(event.categories)}`);
    lines.push('TRANSP:TRANSPARENT', 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
