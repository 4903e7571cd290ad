import { OpError } from '../../../errors/index.ts';

/**
 * Pages of a scanned PDF (pages with no text, only a picture of it) rendered to PNG for OCR.
 * pdfjs-dist renders in Node through @napi-rs/canvas, its optional dependency, which npm installs
 * with it (prebuilt for Linux, macOS and Windows); where it is missing the PDF is refused with a
 * sentence saying to send a photo or screenshot of the page instead.
 */

export const SCANNED_LIMITS = {
  /** Each page costs a few seconds of OCR: a statement of more scanned pages is refused. */
  pages: 6,
  /** A4 at this scale is about 2000 pixels wide, what OCR reads best. */
  scale: 3.4,
} as const;

interface Rendered {
  canvas: { toBuffer(mime: 'image/png'): Buffer };
  context: unknown;
}
interface CanvasFactory {
  create(width: number, height: number): Rendered;
  destroy(rendered: Rendered): void;
}

/** pdfjs types its canvas factory as `Object` (it is DOM- or Node-specific): check what we use. */
function isCanvasFactory(value: unknown): value is CanvasFactory {
  return (
    typeof value === 'object' &&
    value !== null &&
    'create' in value &&
    typeof value.create === 'function' &&
    'destroy' in value &&
    typeof value.destroy === 'function'
  );
}

function cannotRender(): OpError {
  return new OpError('invalid_input', 'errors.statements.scanned_unreadable');
}

/** Each page of the PDF as a PNG, first page first. */
export async function renderPdfPages(bytes: Uint8Array): Promise<Buffer[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
  try {
    if (doc.numPages > SCANNED_LIMITS.pages)
      throw new OpError('too_large', 'errors.statements.scanned_too_many_pages', {
        pages: doc.numPages,
        max: SCANNED_LIMITS.pages,
      });
    const factory: unknown = doc.canvasFactory;
    if (!isCanvasFactory(factory)) throw cannotRender();
    const pages: Buffer[] = [];
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const viewport = page.getViewport({ scale: SCANNED_LIMITS.scale });
      let rendered: Rendered;
      try {
        rendered = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
      } catch {
        throw cannotRender(); // @napi-rs/canvas is not installed
      }
      try {
        await page.render({
          canvas: null,
          canvasContext: rendered.context,
          viewport,
          background: 'white',
        }).promise;
        pages.push(rendered.canvas.toBuffer('image/png'));
      } finally {
        factory.destroy(rendered);
        page.cleanup();
      }
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}
