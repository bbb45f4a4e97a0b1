// Every failure becomes a Django REST framework-shaped JSON body: field errors
// {"field": ["message"]}, {"non_field_errors": [...]}, or {"detail": "..."}. This module is
// the only place that decides those bodies: the domain throws DomainError (server/domain-error.ts),
// which becomes its status and coded body here, and the account service AccountError, which becomes
// Djoser's body; the auth handlers throw ApiError.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import type { ApiError as ApiErrorBody, FieldErrors } from '../../contract/auth';
import type { CodedErrorBody, CodedMessage } from '../../contract/errors';
import { hasUnpairedSurrogate, INVALID_MESSAGE_KEYWORD, isStorableText } from '../../contract/schemas/common';
import { AccountError } from '../accounts/accounts';
import { ACCOUNT_ERRORS } from '../accounts/errors';
import { loggableError } from '../db/errors';
import { DomainError, type DomainErrorKind, type DomainMessage } from '../domain-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * An upload route's own words for a body it refuses before reading it: too large (null: the
     * general "too large") or of a type it does not take.
     */
    refusedUpload?: { tooLarge(request: FastifyRequest): DomainMessage | null; unsupported: DomainMessage };
  }
}

/** A failure with the exact status and body the client gets. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: ApiErrorBody | CodedErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : JSON.stringify(body));
    this.name = 'ApiError';
  }
}

/** A coded message (contract/errors.ts) with its English text. */
export type TextedMessage = DomainMessage;

/** The status of each kind of domain failure. */
const DOMAIN_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  not_found: 404,
  conflict: 409,
  unavailable: 503,
  too_large: 413,
  unsupported: 415,
  payment_required: 402,
};

const codeOf = ({ code, count, detail }: CodedMessage): CodedMessage => ({ code, ...(count !== undefined && { count }), ...(detail !== undefined && { detail }) });

/** {"detail": text, "code": …, "count"?: …} */
export function codedDetailBody(message: TextedMessage): CodedErrorBody {
  return { detail: message.text, code: message.code, ...(message.count !== undefined && { count: message.count }) };
}

/** {"field": [text, …], "codes": {"field": [{code, count?, detail?}, …]}} */
export function codedFieldsBody(fields: Record<string, TextedMessage[]>): CodedErrorBody {
  const body: CodedErrorBody = {};
  const codes: Record<string, CodedMessage[]> = {};
  for (const [field, messages] of Object.entries(fields)) {
    body[field] = messages.map((m) => m.text);
    codes[field] = messages.map(codeOf);
  }
  body.codes = codes;
  return body;
}

export const fieldErrors = (errors: FieldErrors) => new ApiError(400, errors);
export const fieldError = (field: string, message: string) => fieldErrors({ [field]: [message] });
export const nonFieldError = (message: string) => fieldErrors({ non_field_errors: [message] });
export const notFound = () => new ApiError(404, { detail: 'Not found.' });

export const MESSAGES = {
  required: 'This field is required.',
  badUrl: 'The address is not valid: it holds a malformed percent-encoded character.',
  badRequest: 'Bad request.',
  requestTimeout: 'The request took too long to arrive.',
  headersTooLarge: 'The request headers are too large.',
  brokenText: 'Enter valid text: this field holds a broken character (an unpaired UTF-16 surrogate).',
  notFound: 'Not found.',
  serverError: 'A server error occurred.',
  notAuthenticated: 'Authentication credentials were not provided.',
  permissionDenied: 'You do not have permission to perform this action.',
  tooLarge: 'Request body is too large.',
} as const;

/** Error code this module gives a body that is not JSON. */
export const JSON_PARSE_ERROR = 'FUNNELS_JSON_PARSE_ERROR';

// ---------------------------------------------------------------------------------------------
// Schema (ajv) errors → DRF field messages
// ---------------------------------------------------------------------------------------------

/** Schemas may carry "x-invalid" (contract/schemas/common.ts): one message for any failure but a missing field. */
export { INVALID_MESSAGE_KEYWORD };

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  /** Present because the validator runs with verbose: true. */
  data?: unknown;
  parentSchema?: Record<string, unknown>;
}

/** Python's type names, as DRF prints them. */
function pythonType(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'object') return 'dict';
  return typeof value;
}

function fieldName(error: AjvError): string {
  if (error.keyword === 'required') return String(error.params.missingProperty ?? 'non_field_errors');
  const first = error.instancePath.split('/')[1];
  if (first === undefined || first === '') return '';
  return first.replace(/~1/g, '/').replace(/~0/g, '~');
}

function typeMessage(expected: unknown, data: unknown): string {
  if (data === null) return 'This field may not be null.';
  const type = Array.isArray(expected) ? expected[0] : expected;
  switch (type) {
    case 'string':
      return 'Not a valid string.';
    case 'integer':
      return 'A valid integer is required.';
    case 'number':
      return 'A valid number is required.';
    case 'boolean':
      return 'Must be a valid boolean.';
    case 'array':
      return `Expected a list of items but got type "${pythonType(data)}".`;
    case 'object':
      return `Expected a dictionary of items but got type "${pythonType(data)}".`;
    default:
      return 'Invalid value.';
  }
}

function messageFor(error: AjvError): string {
  if (error.keyword === 'required') return MESSAGES.required;
  const custom = error.parentSchema?.[INVALID_MESSAGE_KEYWORD];
  if (typeof custom === 'string' && ['type', 'pattern', 'format', 'minimum', 'maximum'].includes(error.keyword)) {
    return error.data === null ? 'This field may not be null.' : custom;
  }
  if ((error.keyword === 'pattern' || error.keyword === 'format') && typeof error.data === 'string') {
    if (error.data.includes('\u0000')) return 'Null characters are not allowed.';
    if (!isStorableText(error.data)) return MESSAGES.brokenText;
  }
  if (error.data === '' && ['minLength', 'format', 'pattern'].includes(error.keyword)) {
    return 'This field may not be blank.';
  }
  const limit = error.params.limit;
  switch (error.keyword) {
    case 'type':
      return typeMessage(error.params.type, error.data);
    case 'minLength':
      return `Ensure this field has at least ${limit} characters.`;
    case 'maxLength':
      return `Ensure this field has no more than ${limit} characters.`;
    case 'format':
      return error.params.format === 'email-address' ? 'Enter a valid email address.' : 'Enter a valid value.';
    case 'pattern':
      return 'Enter a valid value.';
    case 'enum':
      return `"${String(error.data)}" is not a valid choice.`;
    case 'minItems':
      return 'This list may not be empty.';
    case 'maxItems':
      return `Ensure this field has no more than ${limit} elements.`;
    case 'maximum':
      return `Ensure this value is less than or equal to ${limit}.`;
    case 'minimum':
      return `Ensure this value is greater than or equal to ${limit}.`;
    default:
      return 'Invalid value.';
  }
}

/** ajv's error list → {"field": ["message", ...]} in DRF's wording. */
export function validationBody(errors: AjvError[], context: string | undefined): FieldErrors {
  const body: FieldErrors = {};
  for (const error of errors) {
    let field = fieldName(error);
    let message: string;
    if (field === '') {
      // The whole body (or query) is of the wrong shape.
      field = 'non_field_errors';
      message =
        error.keyword === 'type' && context !== 'querystring'
          ? `Invalid data. Expected a dictionary, but got ${pythonType(error.data)}.`
          : 'Invalid data.';
    } else {
      message = messageFor(error);
    }
    // Query parameters such as id[] are reported under their plain name.
    if (context === 'querystring') field = field.replace(/\[\]$/, '');
    const list = (body[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return body;
}

const SCHEMA_BLANK = 'This field may not be blank.';

/** The code of one schema error, given the text validationBody gave it. */
function schemaCodeOf(error: AjvError, text: string): CodedMessage {
  const limit = typeof error.params.limit === 'number' ? error.params.limit : undefined;
  if (error.keyword === 'required' && text === MESSAGES.required) return { code: 'required' };
  if (text === SCHEMA_BLANK) return { code: 'blank' };
  if (error.keyword === 'maxLength' && limit !== undefined) return { code: 'too_long', count: limit };
  // A wrong type, choice, pattern or range: the text says which; a number it names goes along.
  return { code: 'invalid', ...(limit !== undefined && text.includes(String(limit)) && { count: limit }) };
}

/**
 * ajv's errors of the product API → {"field": [text, …], "codes": {"field": [{code, count?}, …]}}:
 * the same DRF wording as validationBody, plus, per message, the stable code the app translates
 * (contract/errors.ts). The auth API keeps Djoser's bodies without codes.
 */
export function codedValidationBody(errors: FastifySchemaValidationError[], context: string | undefined): CodedErrorBody {
  const fields: Record<string, TextedMessage[]> = {};
  for (const error of errors as AjvError[]) {
    // One error at a time, so each text keeps its own code; repeated texts are dropped, as there.
    for (const [field, texts] of Object.entries(validationBody([error], context))) {
      const list = (fields[field] ??= []);
      for (const text of texts) if (!list.some((m) => m.text === text)) list.push({ text, ...schemaCodeOf(error, text) });
    }
  }
  return codedFieldsBody(fields);
}


// ---------------------------------------------------------------------------------------------
// The central handlers
// ---------------------------------------------------------------------------------------------

type ErrorWithValidation = FastifyError & { validation?: AjvError[]; validationContext?: string };

function methodNotAllowed(method: string) {
  return { detail: `Method "${method}" not allowed.` };
}

export interface ErrorHandlingOptions {
  /** Answers a GET for a path that is neither an API route nor a file (the SPA's index.html). */
  fallback?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | Promise<FastifyReply> | null;
}

/** An API route as registered: tests walk these (every route, every schema) rather than a hand list. */
export interface ApiRoute {
  method: string;
  url: string;
  schema: { body?: unknown; querystring?: unknown; params?: unknown } | undefined;
}
const apiRouteTables = new WeakMap<FastifyInstance, ApiRoute[]>();

/** Every API route of an app built with installErrorHandling, in the order registered. */
export function apiRoutes(app: FastifyInstance): readonly ApiRoute[] {
  return apiRouteTables.get(app) ?? [];
}

/** The API's routes (not the SPA's), kept to tell 404 from 405. */
function routeMatcher(app: FastifyInstance) {
  const routes: { pattern: RegExp; methods: Set<string> }[] = [];
  const table: ApiRoute[] = [];
  apiRouteTables.set(app, table);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (method !== 'HEAD') table.push({ method, url: route.url, schema: route.schema as ApiRoute['schema'] });
    }
    const source = route.url
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    routes.push({ pattern: new RegExp(`^${source}$`), methods: new Set(methods.map((m) => m.toUpperCase())) });
  });
  return (path: string): string[] => {
    const allowed = new Set<string>();
    for (const route of routes) if (route.pattern.test(path)) for (const m of route.methods) allowed.add(m);
    return [...allowed];
  };
}

/** An AccountError as Djoser words it (the auth API: no codes). */
function accountErrorAnswer(error: AccountError): ApiError {
  switch (error.reason) {
    case 'email_taken':
      return fieldError('email', ACCOUNT_ERRORS.emailTaken);
    case 'weak_password':
      return fieldErrors({ [error.weakPassword?.field ?? 'password']: error.weakPassword?.problems ?? [] });
    case 'password_mismatch':
      return nonFieldError(ACCOUNT_ERRORS.passwordMismatch);
    case 'invalid_credentials':
      return nonFieldError(ACCOUNT_ERRORS.invalidCredentials);
    case 'invalid_uid':
      return fieldError('uid', ACCOUNT_ERRORS.invalidUid);
    case 'invalid_token':
      return fieldError('token', ACCOUNT_ERRORS.invalidToken);
    case 'stale_token':
      return new ApiError(403, { detail: ACCOUNT_ERRORS.staleToken });
    case 'wrong_password':
      return fieldError('current_password', ACCOUNT_ERRORS.invalidPassword);
    case 'user_gone':
      return new ApiError(401, { detail: ACCOUNT_ERRORS.userGone });
    case 'inactive_account':
      return nonFieldError(ACCOUNT_ERRORS.inactiveAccount);
    case 'telegram_taken':
      return nonFieldError(ACCOUNT_ERRORS.telegramTaken);
    case 'other_telegram':
      return nonFieldError(ACCOUNT_ERRORS.otherTelegram);
    case 'telegram_known':
      return new ApiError(400, { detail: ACCOUNT_ERRORS.telegramKnown });
    case 'invalid_init_data':
      return fieldError('init_data', ACCOUNT_ERRORS.invalidInitData);
    case 'last_sign_in':
      return new ApiError(400, { detail: ACCOUNT_ERRORS.lastSignIn });
    case 'has_email':
      return new ApiError(400, { detail: ACCOUNT_ERRORS.hasEmail });
    case 'not_found':
      return notFound();
  }
}

/** A domain failure as its answer: its kind's status, its fields (with codes) or its detail (with its code). */
function domainErrorAnswer(error: DomainError): ApiError {
  return new ApiError(DOMAIN_STATUS[error.kind], error.fields ? codedFieldsBody(error.fields) : codedDetailBody(error.detail));
}

/** An upload route's refusal of its body (see refusedUpload), or null when the route words none. */
function uploadRefusal(error: FastifyError, request: FastifyRequest): DomainError | null {
  const refused = request.routeOptions.config.refusedUpload;
  if (!refused) return null;
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new DomainError('unsupported', null, refused.unsupported);
  const tooLarge = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? refused.tooLarge(request) : null;
  return tooLarge ? new DomainError('too_large', null, tooLarge) : null;
}

/**
 * Every failure as its answer. `coded`: schema errors carry their codes (the product API,
 * codedErrorHandling); without, Djoser's bodies (the auth API).
 */
function errorHandler(coded: boolean) {
  return async function handleError(error: ErrorWithValidation, request: FastifyRequest, reply: FastifyReply) {
    const refusal = uploadRefusal(error, request);
    const answer =
      error instanceof DomainError ? domainErrorAnswer(error) : error instanceof AccountError ? accountErrorAnswer(error) : refusal ? domainErrorAnswer(refusal) : error;
    if (answer instanceof ApiError) {
      return reply.code(answer.statusCode).headers(answer.headers).send(answer.body);
    }
    if (error.validation) {
      return reply.code(400).send(coded ? codedValidationBody(error.validation, error.validationContext) : validationBody(error.validation, error.validationContext));
    }
    switch (error.code) {
      case JSON_PARSE_ERROR:
        return reply.code(400).send({ detail: error.message });
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.code(413).send({ detail: MESSAGES.tooLarge });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
        const type = request.headers['content-type'] ?? '';
        return reply.code(415).send({ detail: `Unsupported media type "${type}" in request.` });
      }
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad Content-Length, bad URL encoding...): their messages
      // are fixed strings without request data.
      return reply.code(status).send({ detail: error.message || 'Bad request.' });
    }
    request.log.error({ error: loggableError(error) }, 'request failed');
    return reply.code(500).send({ detail: MESSAGES.serverError });
  };
}

/** The product API's scope: its schema errors carry their codes (contract/errors.ts), as its domain errors do. */
export function codedErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(errorHandler(true));
}

export function installErrorHandling(app: FastifyInstance, options: ErrorHandlingOptions = {}): void {
  const allowedMethods = routeMatcher(app);

  // A path segment longer than any of ours names nothing, whatever the method (before this, a GET
  // reached the static files, which answered 403, and a DELETE the router, which answered 414).
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0];
    if (path.length > PATH_SEGMENT_MAX && path.split('/').some((segment) => segment.length > PATH_SEGMENT_MAX)) {
      return reply.code(404).send({ detail: MESSAGES.notFound });
    }
    return undefined;
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    const isApi = path === '/api' || path.startsWith('/api/');
    if (!isApi && (request.method === 'GET' || request.method === 'HEAD') && options.fallback) {
      const answered = options.fallback(request, reply);
      if (answered) return answered;
    }
    if (isApi) {
      const allowed = allowedMethods(path);
      // A path whose route takes this method but did not match it (a parameter too long for the
      // router) names nothing: 404 like any unknown id, not 405.
      if (allowed.length > 0 && !allowed.includes(request.method)) {
        return reply.code(405).header('Allow', allowed.join(', ')).send(methodNotAllowed(request.method));
      }
    }
    return reply.code(404).send({ detail: MESSAGES.notFound });
  });

  app.setErrorHandler(errorHandler(false));
}

// ---------------------------------------------------------------------------------------------
// Faults found before any route runs: Fastify's router, Node's HTTP parser, the JSON body
// ---------------------------------------------------------------------------------------------

/** No path segment of ours is longer; a longer one names nothing here (and no file either). */
export const PATH_SEGMENT_MAX = 255;

/**
 * Fastify's `frameworkErrors`: the router's own refusals in the Djoser shape, with no request
 * data in them (Fastify's default body echoes the path back). A parameter longer than the router
 * takes names nothing: 404, as a GET that falls through to the static files gets.
 */
export function frameworkErrorReply(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.code(404).send({ detail: MESSAGES.notFound });
    return;
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    void reply.code(400).send({ detail: MESSAGES.badUrl });
    return;
  }
  void reply.code(400).send({ detail: MESSAGES.badRequest });
}

/** Fastify's `clientErrorHandler`: what Node's HTTP parser refuses, answered in the Djoser shape. */
export function clientErrorReply(error: NodeJS.ErrnoException, socket: { destroyed: boolean; writable: boolean; end(data: string): void }): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const [status, detail] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, MESSAGES.requestTimeout]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, MESSAGES.headersTooLarge]
        : [400, MESSAGES.badRequest];
  const body = JSON.stringify({ detail });
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[status];
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

const wellFormed = (text: string) => !hasUnpairedSurrogate(text);

/**
 * The top-level fields of a JSON body that hold a string which is not well-formed UTF-16 (an
 * unpaired surrogate, which "\\ud800" in JSON can make): PostgreSQL cannot store such text. Refused
 * rather than repaired, so that what is saved is exactly what the user sent.
 */
export function fieldsWithBrokenText(body: unknown): string[] {
  const broken = (value: unknown): boolean => {
    if (typeof value === 'string') return !wellFormed(value);
    if (Array.isArray(value)) return value.some(broken);
    if (value && typeof value === 'object') return Object.entries(value).some(([key, item]) => !wellFormed(key) || broken(item));
    return false;
  };
  if (!body || typeof body !== 'object') return broken(body) ? ['non_field_errors'] : [];
  if (Array.isArray(body)) return broken(body) ? ['non_field_errors'] : [];
  return Object.entries(body).flatMap(([key, value]) => (!wellFormed(key) ? ['non_field_errors'] : broken(value) ? [key] : []));
}
