/**
 * Text of a PDF statement, line by line and laid out (columns kept as runs of spaces, like
 * pdftotext -layout), so the line reader can tell a credit column from a debit one. pdfjs-dist
 * 5.4 (its legacy build runs on Node 20) is loaded on first use: most statements are CSV.
 */

interface TextItem {
  str: string;
  x: number;
  y: number;
}

/** Points per character column when laying text out: close to the width of a 9pt glyph. */
const POINTS_PER_COLUMN = 4.5;

export async function pdfText(bytes: Uint8Array): Promise<string> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdfjs keeps the buffer it is given; a copy leaves the caller's untouched.
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
  const pages: string[] = [];
  try {
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      const items: TextItem[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        items.push({ str: item.str, x: item.transform[4] ?? 0, y: item.transform[5] ?? 0 });
      }
      // Rows: items within 3 points of height share a line; top of the page first.
      items.sort((a, b) => b.y - a.y || a.x - b.x);
      const rows: TextItem[][] = [];
      for (const item of items) {
        const row = rows.at(-1);
        if (row && Math.abs((row[0]?.y ?? 0) - item.y) <= 3) row.push(item);
        else rows.push([item]);
      }
      pages.push(
        rows
          .map((row) => {
            let line = '';
            for (const item of row.sort((a, b) => a.x - b.x)) {
              const col = Math.round(item.x / POINTS_PER_COLUMN);
              line +=
                (line.length < col ? ' '.repeat(col - line.length) : line === '' ? '' : '  ') +
                item.str;
            }
            return line;
          })
          .join('\n'),
      );
      page.cleanup();
    }
  } finally {
    await doc.destroy();
  }
  return pages.join('\n\n');
}
