// Images and videos for stage messages, kept in the database (bytea) so every server process
// sees them. The kind comes from the Content-Type; the size limits are Telegram's upload limits.
import { eq } from 'drizzle-orm';
import { MEDIA_MAX_BYTES, MEDIA_TYPES, type MediaKind, type MessageMedia } from '../../contract/funnels';
import type { Db } from '../db';
import { media, type MediaRow } from '../db/schema';
import { ownedFunnel, ownedMedia } from './access';
import { COMMON_ERRORS, invalid, tooLarge, unsupported, type DomainMessage } from '../domain-error';
import { toMessageMedia } from './stages';


export const MEDIA_MESSAGES = {
  tooBig: (kind: MediaKind): DomainMessage => {
    const mb = MEDIA_MAX_BYTES[kind] / (1024 * 1024);
    return { code: 'file_too_big', count: mb, text: `File too big. The file size must not exceed ${mb} MB.` };
  },
  unsupported: { code: 'unsupported_file', text: 'Upload an image (JPEG, PNG, WebP, GIF) or a video (MP4, MOV, WebM).' },
  empty: { code: 'empty_file', text: 'The submitted file is empty.' },
} as const satisfies Record<string, DomainMessage | ((kind: MediaKind) => DomainMessage)>;

export const FILENAME_MAX = 255;

/** The media kind of a Content-Type header value, or null. */
export function mediaKindOf(contentType: string | undefined): MediaKind | null {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return MEDIA_TYPES[type] ?? null;
}

/** Bytes expected at an offset of a file's start. */
type Signature = { at: number; bytes: readonly number[] };
const ascii = (text: string): number[] => [...text].map((char) => char.charCodeAt(0));

// An ISO base media file (MP4, MOV) is a list of boxes: a 4-byte size, then the box's type. It
// starts with 'ftyp'; QuickTime files older than that standard start with one of the others.
const ISO_MEDIA_START: Signature[][] = ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].map((box) => [{ at: 4, bytes: ascii(box) }]);

/** What each image or video type an upload takes starts with; any one of the alternatives matches. */
const FILE_SIGNATURES: Record<string, Signature[][]> = {
  'image/jpeg': [[{ at: 0, bytes: [0xff, 0xd8, 0xff] }]],
  'image/png': [[{ at: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }]],
  'image/gif': [[{ at: 0, bytes: ascii('GIF87a') }], [{ at: 0, bytes: ascii('GIF89a') }]],
  'image/webp': [[{ at: 0, bytes: ascii('RIFF') }, { at: 8, bytes: ascii('WEBP') }]],
  'video/mp4': ISO_MEDIA_START,
  'video/quicktime': ISO_MEDIA_START,
  // Matroska's EBML header.
  'video/webm': [[{ at: 0, bytes: [0x1a, 0x45, 0xdf, 0xa3] }]],
};

/** How many first bytes contentMatchesType needs: a stream may stop reading there. */
export const SIGNATURE_BYTES = 12;

/**
 * Whether a file's first bytes are those of its declared Content-Type (a text file renamed .png
 * is not a PNG). Only the first SIGNATURE_BYTES are read. A type without a known signature never matches.
 */
export function contentMatchesType(contentType: string, head: Uint8Array): boolean {
  const type = contentType.split(';')[0].trim().toLowerCase();
  const alternatives = FILE_SIGNATURES[type] ?? [];
  return alternatives.some((signature) => signature.every(({ at, bytes }) => bytes.every((byte, i) => head[at + i] === byte)));
}

/** Refuses, as bad data, a file whose content is not of its declared type. */
export function requireContentOfType(contentType: string, data: Uint8Array): void {
  if (!contentMatchesType(contentType, data.subarray(0, SIGNATURE_BYTES))) throw invalid(COMMON_ERRORS.incorrectData);
}

/** A file name safe to store and to send back in Content-Disposition. */
export function cleanFilename(name: string | undefined, kind: MediaKind): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(0, FILENAME_MAX);
  return clean || (kind === 'photo' ? 'image' : 'video');
}

export function createMediaService({ db }: { db: Db }) {
  const orm = db.orm;

  async function upload(
    ownerId: number,
    funnelId: number,
    file: { contentType: string; data: Buffer; filename?: string },
  ): Promise<MessageMedia> {
    await ownedFunnel(orm, ownerId, funnelId);
    const kind = mediaKindOf(file.contentType);
    if (!kind) throw unsupported(MEDIA_MESSAGES.unsupported);
    if (file.data.length === 0) throw invalid(MEDIA_MESSAGES.empty);
    if (file.data.length > MEDIA_MAX_BYTES[kind]) throw tooLarge(MEDIA_MESSAGES.tooBig(kind));
    requireContentOfType(file.contentType, file.data);
    const [row] = await orm
      .insert(media)
      .values({
        funnelId,
        kind,
        filename: cleanFilename(file.filename, kind),
        contentType: file.contentType.split(';')[0].trim().toLowerCase(),
        size: file.data.length,
        data: file.data,
      })
      .returning({ id: media.id, kind: media.kind, contentType: media.contentType, size: media.size, filename: media.filename });
    return toMessageMedia(row);
  }

  /** Refuses (404) a funnel that is not the owner's: an upload checks it before its body is read. */
  async function requireFunnel(ownerId: number, funnelId: number): Promise<void> {
    await ownedFunnel(orm, ownerId, funnelId);
  }

  async function download(ownerId: number, mediaId: number): Promise<MediaRow> {
    return ownedMedia(orm, ownerId, mediaId);
  }

  /** For the runtime: the file and its Telegram file id (null until first sent). */
  async function byId(mediaId: number): Promise<MediaRow | undefined> {
    const [row] = await orm.select().from(media).where(eq(media.id, mediaId)).limit(1);
    return row;
  }

  return { upload, requireFunnel, download, byId };
}

export type MediaService = ReturnType<typeof createMediaService>;
