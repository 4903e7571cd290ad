/** One server-sent event: its `event:` name (default `message`) and its joined `data:` lines. */
export interface SseEvent {
  event: string;
  data: string;
  id: string | null;
}

/**
 * An incremental server-sent-events parser (the WHATWG rules): lines end in `\n`, `\r\n` or `\r`;
 * a blank line dispatches; `:` lines are comments; `data:` lines join with `\n`; one space after the
 * colon is dropped. Feed it text as it arrives, split anywhere.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private id: string | null = null;
  private hasData = false;

  /** Parses `text` and returns the events it completed. */
  push(text: string): SseEvent[] {
    this.buffer += text;
    const out: SseEvent[] = [];
    let start = 0;
    const buf = this.buffer;
    for (let i = 0; i < buf.length; i += 1) {
      const c = buf.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      // A `\r` at the very end may be the first half of `\r\n`: wait for the next chunk.
      if (c === 13 && i === buf.length - 1) break;
      this.line(buf.slice(start, i), out);
      if (c === 13 && buf.charCodeAt(i + 1) === 10) i += 1;
      start = i + 1;
    }
    this.buffer = buf.slice(start);
    return out;
  }

  /** Ends the stream: a last event without its blank line is still delivered (lenient). */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.buffer.length > 0) {
      const rest = this.buffer.endsWith('\r') ? this.buffer.slice(0, -1) : this.buffer;
      this.buffer = '';
      this.line(rest, out);
    }
    this.dispatch(out);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      this.dispatch(out);
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ':' comment (keep-alives such as ": OPENROUTER PROCESSING")
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        this.hasData = true;
        break;
      case 'event':
        this.event = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      default:
        // `retry:` and unknown fields are ignored.
        break;
    }
  }

  private dispatch(out: SseEvent[]): void {
    if (this.hasData)
      out.push({ event: this.event || 'message', data: this.data.join('\n'), id: this.id });
    this.event = '';
    this.data = [];
    this.hasData = false;
  }
}

/** The events of a response body, decoded as UTF-8 across chunk boundaries. */
export async function* sseEvents(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  const parser = new SseParser();
  const cancel = (): void => {
    void reader.cancel().catch(() => undefined);
  };
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const event of parser.push(decoder.decode(value, { stream: true }))) yield event;
    }
    for (const event of parser.push(decoder.decode())) yield event;
    for (const event of parser.end()) yield event;
  } finally {
    signal?.removeEventListener('abort', cancel);
    cancel();
  }
}
