/**
 * Every limit of the assistant, in one table (docs/assistant.md shows the same table; a test keeps
 * them equal). Sizes are refused above the limit, never cut.
 */
export const LIMITS = {
  /** Model calls per member message (the tool loop stops there). */
  callsPerMessage: 6,
  /** Changes prepared (proposals) per member message. */
  changesPerMessage: 5,
  /** Output tokens asked for per model call. */
  maxTokensPerCall: 8_192,
  /** Time one model call may take, retry included. */
  callTimeoutMs: 60_000,
  /** Time the model may take to tidy a statement's merchant names (then they stay as the bank wrote them). */
  tidyTimeoutMs: 10_000,
  /** Time one member message may take, every call and tool included. */
  messageTimeoutMs: 150_000,
  /** Bytes of a member's message text (UTF-8). */
  messageBytes: 4_000,
  /** Bytes of one tool result sent to the model; a larger result is refused with a hint to narrow it. */
  toolResultBytes: 30_000,
  /** Messages a member may send at once before the pace applies. */
  rateBurst: 12,
  /** After the burst, one message per this many milliseconds. */
  rateIntervalMs: 15_000,
  /** Bytes of one picture (PNG, JPEG, WebP). */
  pictureBytes: 5 * 1024 * 1024,
  /** Bytes of one PDF. */
  pdfBytes: 20 * 1024 * 1024,
  /** Bytes of one text file. */
  textBytes: 200 * 1024,
  /** Earlier turns (question and answer, text only) the model sees. */
  memoryTurns: 6,
  /** How long a remembered turn is kept. */
  memoryTtlMs: 24 * 3_600_000,
  /** How long a proposal can be confirmed. */
  proposalTtlMs: 30 * 60_000,
  /** How long an applied proposal can be undone from its card. */
  undoWindowMs: 24 * 3_600_000,
} as const;

export type Limits = { -readonly [K in keyof typeof LIMITS]: number };
