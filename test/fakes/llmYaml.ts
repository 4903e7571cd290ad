/**
 * Just enough YAML to read the VCR cassettes among the recorded LLM fixtures: block mappings and
 * sequences (compact `- key: value` items included), plain, single- and double-quoted scalars
 * (multi-line too), literal block scalars (`|`, `|+`, `|-`, `|2`) and the empty flow `{}`/`[]`.
 * It throws on anything else, so a fixture it cannot read fails loudly instead of replaying wrong.
 */
export type Yaml = string | number | boolean | null | Yaml[] | { [key: string]: Yaml };

interface Line {
  indent: number;
  text: string;
}

export function parseYaml(source: string): Yaml {
  const lines: Line[] = source.split(/\r?\n/).map((raw) => {
    const indent = raw.length - raw.trimStart().length;
    return { indent, text: raw };
  });
  const parser = new Parser(lines);
  const value = parser.node(0, -1);
  return value;
}

const isBlank = (line: Line | undefined): boolean =>
  line === undefined ||
  line.text.trim() === '' ||
  line.text.trim().startsWith('#') ||
  /^(---|\.\.\.)\s*$/.test(line.text.trim());
const KEY = /^([^'"{[\s#][^:]*?|'[^']*'|"[^"]*"):(?:\s+(.*))?$/;

class Parser {
  private i = 0;

  constructor(private readonly lines: Line[]) {}

  private skipBlank(): void {
    while (this.i < this.lines.length && isBlank(this.lines[this.i])) this.i += 1;
  }

  private current(): Line | undefined {
    this.skipBlank();
    return this.lines[this.i];
  }

  /** A node whose first line is at `indent`, inside a collection at `parent`. */
  node(indent: number, parent: number): Yaml {
    const line = this.current();
    if (!line || line.indent < indent) return null;
    const body = line.text.slice(line.indent);
    if (body === '-' || body.startsWith('- ')) return this.sequence(line.indent);
    if (KEY.test(body)) return this.mapping(line.indent);
    return this.scalarAt(parent);
  }

  private sequence(indent: number): Yaml[] {
    const out: Yaml[] = [];
    for (;;) {
      const line = this.current();
      if (!line || line.indent !== indent) break;
      const body = line.text.slice(indent);
      if (!(body === '-' || body.startsWith('- '))) break;
      if (body.trim() === '-') {
        this.i += 1;
        out.push(this.node(indent + 1, indent));
        continue;
      }
      // Turn "- x" into "  x" and read the item as a node two columns in.
      const rest = body.slice(2);
      const pad = rest.length - rest.trimStart().length;
      this.lines[this.i] = { indent: indent + 2 + pad, text: ' '.repeat(indent + 2) + rest };
      out.push(this.node(indent + 2 + pad, indent));
    }
    return out;
  }

  private mapping(indent: number): { [key: string]: Yaml } {
    const out: { [key: string]: Yaml } = {};
    for (;;) {
      const line = this.current();
      if (!line || line.indent !== indent) break;
      const body = line.text.slice(indent);
      const match = KEY.exec(body);
      if (!match || body.startsWith('- ')) break;
      const key = unquoteKey(match[1] ?? '');
      const value = (match[2] ?? '').trim();
      if (value === '') {
        this.i += 1;
        const next = this.current();
        if (
          next &&
          (next.indent > indent ||
            (next.indent === indent && /^-( |$)/.test(next.text.slice(indent))))
        )
          out[key] = this.node(next.indent, indent);
        else out[key] = null;
        continue;
      }
      if (/^[|>]/.test(value)) {
        this.i += 1;
        out[key] = this.block(value, indent);
        continue;
      }
      // The value starts on this line: read it as a scalar from where it begins.
      const start = line.text.length - (match[2] ?? '').length;
      this.lines[this.i] = { indent: start, text: ' '.repeat(start) + (match[2] ?? '') };
      out[key] = this.scalarAt(indent);
    }
    return out;
  }

  /** A literal (or folded) block scalar under a key at `indent`. */
  private block(header: string, indent: number): string {
    const m = /^([|>])([+-]?)(\d?)([+-]?)\s*(#.*)?$/.exec(header);
    if (!m) throw new Error(`unsupported block header ${header}`);
    const folded = m[1] === '>';
    const chomp = m[2] || m[4] || '';
    const explicit = m[3] ? indent + Number(m[3]) : undefined;
    const collected: string[] = [];
    let contentIndent = explicit;
    while (this.i < this.lines.length) {
      const line = this.lines[this.i];
      if (!line) break;
      if (line.text.trim() === '') {
        collected.push('');
        this.i += 1;
        continue;
      }
      contentIndent ??= line.indent;
      if (line.indent < contentIndent || line.indent <= indent) break;
      collected.push(line.text.slice(contentIndent));
      this.i += 1;
    }
    let trailing = 0;
    while (collected.length > 0 && collected[collected.length - 1] === '') {
      collected.pop();
      trailing += 1;
    }
    let text = folded ? collected.join(' ') : collected.join('\n');
    if (chomp === '+') text += '\n' + '\n'.repeat(trailing);
    else if (chomp === '' && collected.length > 0) text += '\n';
    return text;
  }

  /** A flow scalar starting at the current line (possibly continued on lines indented past `parent`). */
  private scalarAt(parent: number): Yaml {
    const line = this.lines[this.i];
    if (!line) return null;
    const first = line.text.trim();
    if (first.startsWith("'") || first.startsWith('"')) return this.quoted(first[0] === '"');
    const parts = [first];
    this.i += 1;
    while (this.i < this.lines.length) {
      const next = this.lines[this.i];
      if (!next || next.text.trim() === '' || next.indent <= parent) break;
      parts.push(next.text.trim());
      this.i += 1;
    }
    return typed(parts.join(' ').replace(/\s+#.*$/, ''));
  }

  private quoted(double: boolean): string {
    const quote = double ? '"' : "'";
    let text = this.lines[this.i]?.text.trim().slice(1) ?? '';
    this.i += 1;
    for (;;) {
      const end = closing(text, double);
      if (end !== -1) {
        const rest = text.slice(end + 1).trim();
        if (rest !== '' && !rest.startsWith('#'))
          throw new Error(`text after a quoted scalar: ${rest}`);
        return double
          ? unescapeDouble(text.slice(0, end))
          : text.slice(0, end).replaceAll("''", "'");
      }
      const next = this.lines[this.i];
      if (!next) throw new Error(`unterminated ${quote} scalar`);
      this.i += 1;
      // Line folding: a line break becomes a space, an empty line a newline.
      text += next.text.trim() === '' ? '\n' : (text.endsWith('\n') ? '' : ' ') + next.text.trim();
    }
  }
}

function closing(text: string, double: boolean): number {
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (double) {
      if (c === '\\') i += 1;
      else if (c === '"') return i;
    } else if (c === "'") {
      if (text[i + 1] === "'") i += 1;
      else return i;
    }
  }
  return -1;
}

function unescapeDouble(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_m, e: string) => {
    if (e.startsWith('u') || e.startsWith('x'))
      return String.fromCharCode(parseInt(e.slice(1), 16));
    const map: Record<string, string> = {
      n: '\n',
      t: '\t',
      r: '\r',
      '0': '\0',
      '"': '"',
      '\\': '\\',
      '/': '/',
      ' ': ' ',
      e: '\x1b',
    };
    return map[e] ?? e;
  });
}

function unquoteKey(key: string): string {
  const k = key.trim();
  if (k.startsWith("'") && k.endsWith("'")) return k.slice(1, -1).replaceAll("''", "'");
  if (k.startsWith('"') && k.endsWith('"')) return unescapeDouble(k.slice(1, -1));
  return k;
}

function typed(text: string): Yaml {
  if (text === '{}') return {};
  if (text === '[]') return [];
  if (text === 'null' || text === '~' || text === '') return null;
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (/^-?(0|[1-9]\d*)$/.test(text)) return Number(text);
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/.test(text)) return Number(text);
  if (text.startsWith('{') || text.startsWith('['))
    throw new Error(`flow collections are not supported: ${text.slice(0, 40)}`);
  return text;
}
