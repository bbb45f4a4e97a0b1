// Reads a Bot API request every way Telegram accepts one: query string, JSON,
// application/x-www-form-urlencoded and multipart/form-data (grammY's file uploads),
// and gives typed access to its parameters with Telegram's complaints about bad ones.
import type { IncomingMessage } from 'node:http';

/** A Bot API failure: becomes `{ ok: false, error_code, description, parameters? }`. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number; migrate_to_chat_id?: number },
  ) {
    super(description);
  }
}

export const badRequest = (what: string) => new ApiError(400, `Bad Request: ${what}`);

export interface UploadedFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

/** Largest request body accepted (Telegram's upload limit is 50 MB). */
export const MAX_BODY_BYTES = 50 * 1024 * 1024 + 64 * 1024;

export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new ApiError(413, 'Request Entity Too Large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function headerParam(header: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|[;\\s])${name}=(?:"([^"]*)"|([^;\\r\\n]*))`, 'i').exec(header);
  return match ? (match[1] ?? match[2]).trim() : undefined;
}

function parseMultipart(body: Buffer, boundary: string): { fields: Record<string, unknown>; files: Map<string, UploadedFile> } {
  const fields: Record<string, unknown> = {};
  const files = new Map<string, UploadedFile>();
  const delimiter = Buffer.from(`--${boundary}`);
  let position = body.indexOf(delimiter);
  while (position !== -1) {
    let start = position + delimiter.length;
    if (body[start] === 0x2d && body[start + 1] === 0x2d) break; // closing delimiter "--boundary--"
    if (body[start] === 0x0d && body[start + 1] === 0x0a) start += 2;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    let end = next;
    if (body[end - 2] === 0x0d && body[end - 1] === 0x0a) end -= 2;
    const part = body.subarray(start, end);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd !== -1) {
      const headers = new Map<string, string>();
      for (const line of part.subarray(0, headerEnd).toString('utf8').split('\r\n')) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      const disposition = headers.get('content-disposition') ?? '';
      const name = headerParam(disposition, 'name');
      const filename = headerParam(disposition, 'filename');
      const content = part.subarray(headerEnd + 4);
      if (name !== undefined) {
        if (filename !== undefined) {
          files.set(name, { filename, contentType: headers.get('content-type') ?? 'application/octet-stream', data: Buffer.from(content) });
        } else {
          fields[name] = content.toString('utf8');
        }
      }
    }
    position = next;
  }
  return { fields, files };
}

/** Parses query string and body into one parameter bag. */
export function parseParams(url: URL, contentType: string | undefined, body: Buffer): Params {
  const raw: Record<string, unknown> = Object.fromEntries(url.searchParams);
  let files = new Map<string, UploadedFile>();
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (body.length > 0) {
    if (type === 'application/json') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        throw badRequest("can't parse JSON encoded request body");
      }
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) Object.assign(raw, parsed);
    } else if (type === 'application/x-www-form-urlencoded') {
      Object.assign(raw, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
    } else if (type === 'multipart/form-data') {
      const boundary = headerParam(contentType ?? '', 'boundary');
      if (!boundary) throw badRequest('multipart boundary is missing');
      const parsed = parseMultipart(body, boundary);
      Object.assign(raw, parsed.fields);
      files = parsed.files;
    }
  }
  return new Params(raw, files);
}

export type FileInput = { upload: UploadedFile } | { reference: string };

/**
 * Typed access to request parameters. Form and query values arrive as strings, JSON values as
 * numbers, booleans and objects; Telegram accepts both, and so does every getter here.
 */
export class Params {
  constructor(
    readonly raw: Record<string, unknown>,
    readonly files: Map<string, UploadedFile>,
  ) {}

  has(key: string): boolean {
    return this.raw[key] !== undefined && this.raw[key] !== null;
  }

  string(key: string): string | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return JSON.stringify(value);
  }

  integer(key: string): number | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null || value === '') return undefined;
    const n = typeof value === 'number' ? value : Number(value);
    if (!Number.isInteger(n)) throw badRequest(`invalid ${key} specified`);
    return n;
  }

  boolean(key: string): boolean | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'boolean') return value;
    return value === 'true' || value === '1' || value === 1;
  }

  /** A JSON-serialized parameter (objects and arrays), as an object. */
  json<T>(key: string, what = key): T | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') return value as T;
    try {
      return JSON.parse(value) as T;
    } catch {
      throw badRequest(`can't parse ${what} JSON object`);
    }
  }

  /** A file parameter: an upload (directly or via attach://name), or a file_id / URL string. */
  file(key: string): FileInput | undefined {
    const direct = this.files.get(key);
    if (direct) return { upload: direct };
    const value = this.string(key);
    if (value === undefined || value === '') return undefined;
    if (value.startsWith('attach://')) {
      const attached = this.files.get(value.slice('attach://'.length));
      if (!attached) throw badRequest(`file ${value} not found in the request`);
      return { upload: attached };
    }
    return { reference: value };
  }

  /** The parameters as plain JSON for the call log (uploads summarised, not copied). */
  summary(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(this.raw)) {
      if (typeof value === 'string' && /^[[{]/.test(value)) {
        try {
          out[key] = JSON.parse(value);
          continue;
        } catch {
          // keep the string as it came
        }
      }
      out[key] = value;
    }
    for (const [key, file] of this.files) out[key] = { upload: file.filename, bytes: file.data.length };
    return out;
  }
}
