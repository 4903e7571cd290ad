/** Chart and avatar colours: a fixed palette that reads on light and dark backgrounds. */
export const PALETTE = [
  '#4f8ef7',
  '#f76b8a',
  '#34c38f',
  '#f5a623',
  '#9b6bf2',
  '#25b9c9',
  '#ef6a3a',
  '#7c8cff',
  '#c7a008',
  '#e25cc4',
];

export function colorFor(text: string): string {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length] ?? '#4f8ef7';
}
