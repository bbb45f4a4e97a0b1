// Images and videos for stage messages, kept in the database (bytea) so every server process
// sees them. The kind comes from the Content-Type; the size limits are Telegram's upload limits.
import { eq } from 'drizzle-orm';
import { MEDIA_MAX_BYTES, MEDIA_TYPES, type MediaKind, type MessageMedia } from '../../contract/funnels';
import type { Db } from '../db';
import { media, type MediaRow } from '../db/schema';
import { ownedFunnel, ownedMedia } from './access';
import { invalid, tooLarge, unsupported, type DomainMessage } from '../domain-error';
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
