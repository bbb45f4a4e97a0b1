// Files and media: photos and videos sent by upload, file_id or URL, Telegram's size limits,
// getFile and the downloads behind /file/bot<token>/<file_path>.
import type { File, Message, PhotoSize, Video } from 'grammy/types';
import { ApiError, badRequest, type FileInput, type Params, type UploadedFile } from './request-body';
import { CAPTION_LIMIT, type FakeBot, isHttpUrl, PHOTO_UPLOAD_LIMIT_BYTES, randomId, type StoredFile, UPLOAD_LIMIT_BYTES } from './model';
import type { ChatMessages } from './messages';
import type { FakeState } from './state';

/** Width and height of a PNG, JPEG or GIF, read from its header; a guess for anything else. */
function imageSize(data: Buffer): { width: number; height: number } {
  if (data.length > 24 && data.readUInt32BE(0) === 0x89504e47) {
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data.length > 10 && data.toString('latin1', 0, 3) === 'GIF') {
    return { width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  }
  if (data.length > 4 && data[0] === 0xff && data[1] === 0xd8) {
    let i = 2;
    while (i + 9 < data.length) {
      if (data[i] !== 0xff) break;
      const marker = data[i + 1];
      const length = data.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: data.readUInt16BE(i + 7), height: data.readUInt16BE(i + 5) };
      }
      i += 2 + length;
    }
  }
  return { width: 1280, height: 720 };
}

/** The files the bots sent or uploaded, and the media messages made of them. */
export class MediaFiles {
  constructor(
    private readonly state: FakeState,
    private readonly messages: ChatMessages,
  ) {}

  sendMedia(bot: FakeBot, p: Params, kind: 'photo' | 'video'): Message {
    const chat = this.messages.writableChat(bot, p);
    const input = p.file(kind);
    if (!input) throw badRequest(`there is no ${kind} in the request`);
    const { text: caption, entities } = this.messages.formatted(p, 'caption', 'caption_entities');
    if (caption.length > CAPTION_LIMIT) throw badRequest('message caption is too long');
    const replyTo = this.messages.replyTo(chat, p);
    const inline = this.messages.replyMarkup(chat, p);
    const file = this.resolveFile(bot, input, kind, p);
    const media =
      kind === 'photo'
        ? { photo: this.photoSizes(file) }
        : {
            video: {
              file_id: file.file_id,
              file_unique_id: file.file_unique_id,
              width: p.integer('width') ?? file.width,
              height: p.integer('height') ?? file.height,
              duration: p.integer('duration') ?? 0,
              mime_type: file.contentType,
              ...(file.file_name ? { file_name: file.file_name } : {}),
              ...(file.file_size !== undefined ? { file_size: file.file_size } : {}),
            } satisfies Video,
          };
    return this.messages.storeBotMessage(bot, chat, {
      ...(replyTo ? { reply_to_message: replyTo } : {}),
      ...media,
      ...(caption ? { caption } : {}),
      ...(entities.length ? { caption_entities: entities } : {}),
      ...(p.boolean('has_spoiler') ? { has_media_spoiler: true } : {}),
      ...(inline ? { reply_markup: inline } : {}),
    });
  }

  photoSizes(file: StoredFile): PhotoSize[] {
    const full: PhotoSize = {
      file_id: file.file_id,
      file_unique_id: file.file_unique_id,
      width: file.width,
      height: file.height,
      ...(file.file_size !== undefined ? { file_size: file.file_size } : {}),
    };
    if (Math.max(file.width, file.height) <= 320) return [full];
    // Telegram also makes smaller copies; the fake names one, backed by the same bytes.
    const scale = 320 / Math.max(file.width, file.height);
    const thumb: PhotoSize = {
      file_id: `${file.file_id}-s`,
      file_unique_id: `${file.file_unique_id}s`,
      width: Math.round(file.width * scale),
      height: Math.round(file.height * scale),
    };
    this.state.files.set(thumb.file_id, { ...file, file_id: thumb.file_id, file_unique_id: thumb.file_unique_id });
    return [thumb, full];
  }

  /** An upload becomes a new stored file; a file_id is looked up; a URL is taken on trust. */
  resolveFile(bot: FakeBot, input: FileInput, kind: 'photo' | 'video', p: Params): StoredFile {
    if ('upload' in input) return this.storeUpload(bot, input.upload, kind);
    const reference = input.reference;
    if (isHttpUrl(reference)) {
      return this.storeFile(bot, kind, { url: reference, contentType: kind === 'photo' ? 'image/jpeg' : 'video/mp4', width: p.integer('width') ?? 1280, height: p.integer('height') ?? 720 });
    }
    const known = this.state.files.get(reference);
    if (!known || known.botId !== bot.me.id) throw badRequest('wrong file identifier/HTTP URL specified');
    if (known.kind !== kind) {
      const name = (k: string) => k[0].toUpperCase() + k.slice(1);
      throw badRequest(`can't use file of type ${name(known.kind)} as ${name(kind)}`);
    }
    return known;
  }

  storeUpload(bot: FakeBot, upload: UploadedFile, kind: 'photo' | 'video'): StoredFile {
    if (upload.data.length === 0) throw badRequest('file must be non-empty');
    if (upload.data.length > UPLOAD_LIMIT_BYTES) throw new ApiError(413, 'Request Entity Too Large');
    if (kind === 'photo' && upload.data.length > PHOTO_UPLOAD_LIMIT_BYTES) throw badRequest('PHOTO_SAVE_FILE_INVALID');
    const size = kind === 'photo' ? imageSize(upload.data) : { width: 1280, height: 720 };
    const contentType =
      upload.contentType !== 'application/octet-stream'
        ? upload.contentType
        : kind === 'photo'
          ? 'image/jpeg'
          : 'video/mp4';
    return this.storeFile(bot, kind, { data: upload.data, contentType, file_name: upload.filename, file_size: upload.data.length, ...size });
  }

  storeFile(
    bot: FakeBot,
    kind: 'photo' | 'video',
    fields: Pick<StoredFile, 'contentType' | 'width' | 'height'> & Partial<Pick<StoredFile, 'data' | 'url' | 'file_size' | 'file_name'>>,
  ): StoredFile {
    const prefix = kind === 'photo' ? 'AgACAgIAAxkBAA' : 'BAACAgIAAxkBAA';
    const extension = kind === 'photo' ? 'jpg' : 'mp4';
    const file: StoredFile = {
      file_id: prefix + randomId(24),
      file_unique_id: 'AQAD' + randomId(8),
      kind,
      botId: bot.me.id,
      file_path: `${kind}s/file_${this.state.files.size}.${extension}`,
      ...fields,
    };
    this.state.files.set(file.file_id, file);
    this.state.filesByPath.set(file.file_path, file);
    return file;
  }

  getFile(bot: FakeBot, p: Params): File {
    const fileId = p.string('file_id');
    const file = fileId ? this.state.files.get(fileId) : undefined;
    if (!file || file.botId !== bot.me.id) throw badRequest('invalid file_id');
    return {
      file_id: file.file_id,
      file_unique_id: file.file_unique_id,
      ...(file.file_size !== undefined ? { file_size: file.file_size } : {}),
      ...(file.data ? { file_path: file.file_path } : {}),
    };
  }

  /** The bytes behind /file/bot<token>/<file_path>. */
  download(token: string, filePath: string): StoredFile | undefined {
    const bot = this.state.bots.get(token);
    const file = this.state.filesByPath.get(filePath);
    if (!bot || bot.revoked || !file || file.botId !== bot.me.id) return undefined;
    return file;
  }

  /** A stored file by file_id, for the web page (no token needed: the page is local). */
  fileById(fileId: string): StoredFile | undefined {
    return this.state.files.get(fileId);
  }
}
