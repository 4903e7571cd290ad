import { inspect } from 'node:util';

const HIDDEN = '[hidden]';

/**
 * A credential inside an op's parsed input. The kernel keeps every input in the audit entry (as
 * JSON) and a surface may log or show one, so the value lives in a private field that JSON,
 * `String()` and `util.inspect` all render as "[hidden]"; `reveal()` is the only way to read it.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return HIDDEN;
  }

  toString(): string {
    return HIDDEN;
  }

  [inspect.custom](): string {
    return HIDDEN;
  }
}
