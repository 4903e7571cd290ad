import { OpError } from '../errors/index.ts';
import { dataBlock, neutralText } from './guard.ts';
import type { ImageType, Part } from './model.ts';

/** A file a member sent with a message, as the channel received it. */
export interface Attachment {
  data: Uint8Array;
  name?: string | undefined;
  /** The channel's claim; the bytes decide (a picture is recognised by its signature). */
  mediaType?: string | undefined;
}

export interface AttachmentLimits {
  pictureBytes: number;
  pdfBytes: number;
  textBytes: number;
}

type Kind = { kind: 'image'; mediaType: ImageType } | { kind: 'pdf' } | { kind: 'text' };

const startsWith = (data: Uint8Array, bytes: number[], at = 0): boolean =>
  bytes.every((b, i) => data[at + i] === b);

/** What a file is, from its first bytes (and, for text, that it decodes as UTF-8 without NULs). */
function kindOf(file: Attachment): Kind | null {
  const d = file.data;
  if (startsWith(d, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { kind: 'image', mediaType: 'image/png' };
  if (startsWith(d, [0xff, 0xd8, 0xff])) return { kind: 'image', mediaType: 'image/jpeg' };
  if (startsWith(d, [0x52, 0x49, 0x46, 0x46]) && startsWith(d, [0x57, 0x45, 0x42, 0x50], 8))
    return { kind: 'image', mediaType: 'image/webp' };
  if (startsWith(d, [0x25, 0x50, 0x44, 0x46, 0x2d])) return { kind: 'pdf' };
  if (d.includes(0)) return null;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(d);
    return { kind: 'text' };
  } catch {
    return null;
  }
}

const MB = 1024 * 1024;
const sizeText = (bytes: number): string =>
  bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`;

/**
 * The parts a file becomes for the model: a picture or a PDF as the protocol expects it, a text
 * file as a data block. Above its limit a file is refused whole, never cut.
 */
export function attachmentPart(file: Attachment, limits: AttachmentLimits): Part {
  const kind = kindOf(file);
  const name = (file.name ?? 'file').slice(0, 120);
  if (!kind) throw new OpError('invalid_input', 'assistant.attachment.unsupported', { name });
  const size = file.data.byteLength;
  const max =
    kind.kind === 'image'
      ? limits.pictureBytes
      : kind.kind === 'pdf'
        ? limits.pdfBytes
        : limits.textBytes;
  if (size > max)
    throw new OpError('too_large', `assistant.attachment.too_large.${kind.kind}`, {
      name,
      max: sizeText(max),
    });
  const base64 = Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength).toString(
    'base64',
  );
  switch (kind.kind) {
    case 'image':
      return { type: 'image', mediaType: kind.mediaType, data: base64 };
    case 'pdf':
      return { type: 'pdf', data: base64, name };
    case 'text':
      return {
        type: 'text',
        text: dataBlock(
          'file',
          `${neutralText(name)}\n${neutralText(new TextDecoder().decode(file.data))}`,
        ),
      };
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}
