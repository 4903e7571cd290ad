/**
 * OCR text made into the lines the line reader (lines.ts) reads, fixing what tesseract gets
 * wrong on statements and what banking apps lay out differently from paper:
 * - letters read for digits inside numbers ("1O.99", "O3 NOV": O and o for 0, l, I and | for 1);
 * - amounts broken by spaces ("15 .99", "- 15,99", "1 030.00") and long dashes for minus signs;
 * - a currency after the amount ("-15,99 €", as apps show it) moved before it ("-€ 15,99");
 * - a day glued to its month ("12NOV");
 * - banking apps' date headings: a line that is only a date ("12 November 2025", "Mon, 12 Nov")
 *   dates the amount lines under it until the next heading.
 * Everything else is left as read: the line reader decides what is a transaction.
 */

const DIGITISH = /[0-9OoIl|]/;

/** "1O.99" → "10.99": inside a run of digits, letters that look like digits are those digits. */
function fixDigits(token: string): string {
  const digits = token.replace(/[^0-9]/g, '').length;
  if (digits === 0 || !/^[-+(€$£]?[0-9OoIl|][0-9OoIl|.,']*\)?$/.test(token)) return token;
  // "Oo" alone is a word; a token must be mostly real digits to be a number.
  if (digits * 2 < token.replace(/[^0-9OoIl|]/g, '').length) return token;
  return token.replace(/[Oo]/g, '0').replace(/[Il|]/g, '1');
}

const MONTH = '[A-Za-zÁÉÍÓÚáéíóúñ]{3,10}\\.?';
/** A line that is a date and nothing else: a banking app's heading over that day's rows. */
const WEEKDAY = '(?:mon|tue|wed|thu|fri|sat|sun|lun|mar|mi[eé]|jue|vie|s[aá]b|dom)[a-zéá]*\\.?,?';
const DATE_HEADING = new RegExp(
  `^(?:${WEEKDAY}\\s+)?(\\d{1,2})\\.?\\s+(?:de\\s+)?(${MONTH})(?:\\s+(?:de\\s+)?(\\d{4}))?$`,
  'i',
);
const STARTS_WITH_DATE = /^\d{1,2}(?:[./-]\d{1,2}|\.?\s+[A-Za-z]{3})|^\d{4}-\d{2}-\d{2}/;
const ENDS_WITH_AMOUNT = /\d[.,]\d{2}\)?(?:\s*(?:-|\+|CR|DR))?$/;

function cleanLine(raw: string): string {
  let line = raw
    .replace(/[\u2212\u2013\u2014]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  line = line.split(' ').map(fixDigits).join(' ');
  line = line
    // "12NOV 2025" → "12 NOV 2025"
    .replace(/^(\d{1,2})([A-Za-z]{3,9}\b)/, '$1 $2')
    // "15 .99", "15. 99", "15 , 99" at the end → "15.99"
    .replace(/(\d) ?([.,]) ?(\d{2})(\)?)$/, '$1$2$3$4')
    // "1 030.00" → "1030.00"; "- 15.99" → "-15.99"
    .replace(/(\d{1,3}) (\d{3}[.,]\d{2}\)?)$/, '$1$2')
    .replace(/(^|\s)([-+]) (\d)/g, '$1$2$3')
    // "-15,99 €" → "-€ 15,99" (the sign first, where the line reader looks for it)
    .replace(/([-+]?)(\d[\d.,']*[.,]\d{2}) ?(€|EUR|\$|USD|£|GBP)$/, '$1$3 $2');
  return line;
}

export function cleanOcrText(text: string): string {
  const out: string[] = [];
  let heading: string | null = null;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = cleanLine(raw);
    const date = DATE_HEADING.exec(line);
    if (date && DIGITISH.test(line)) {
      heading = [date[1], date[2], date[3]].filter(Boolean).join(' ');
      out.push(line);
      continue;
    }
    if (heading && !STARTS_WITH_DATE.test(line) && ENDS_WITH_AMOUNT.test(line)) {
      out.push(`${heading}  ${line}`);
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}
