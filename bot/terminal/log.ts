/**
 * The log of `exhale chat`: one line per message, on the error stream, never inside the chat's own
 * lines. While an answer is being printed piece by piece (the cursor mid-line), lines wait, and
 * are printed once the answer's line is finished.
 */
export interface ChatLog {
  log(message: string, error?: unknown): void;
  /** An answer started printing on the chat's line: hold log lines until `release`. */
  hold(): void;
  /** The answer's line is finished: print what waited. */
  release(): void;
}

export function chatLog(stream: NodeJS.WritableStream): ChatLog {
  let held = false;
  const waiting: string[] = [];
  const line = (message: string, error: unknown): string =>
    `${message}${error instanceof Error ? `: ${error.message}` : ''}\n`;
  return {
    log(message, error) {
      if (held) waiting.push(line(message, error));
      else stream.write(line(message, error));
    },
    hold() {
      held = true;
    },
    release() {
      held = false;
      for (const text of waiting.splice(0)) stream.write(text);
    },
  };
}
