// The auth API's routes as Fastify sees them: which contract schema (contract/schemas/auth.ts)
// checks each body and query, and which serializes each answer (nothing unlisted leaks out).
// No shape is written here.
import { Type } from 'typebox';
import {
  ActivationBodySchema,
  CredentialsBodySchema,
  TelegramLinkBodySchema,
  TelegramIdentityBodySchema,
  ByIdQuerySchema,
  ByIdsQuerySchema,
  CurrentUserSchema,
  EmailBodySchema,
  EmptyBodySchema,
  LoginBodySchema,
  LoginResponseSchema,
  PublicUserSchema,
  RegisterBodySchema,
  RegisterResponseSchema,
  ResetConfirmBodySchema,
  SetPasswordBodySchema,
  UpdateMeBodySchema,
} from '../../../contract/schemas/auth';

export const registerSchema = { body: RegisterBodySchema, response: { 201: RegisterResponseSchema } };
export const activationSchema = { body: ActivationBodySchema };
export const emailSchema = { body: EmailBodySchema };
export const loginSchema = { body: LoginBodySchema, response: { 200: LoginResponseSchema } };
export const emptyBodySchema = { body: EmptyBodySchema };
export const meSchema = { response: { 200: CurrentUserSchema } };
export const updateMeSchema = { body: UpdateMeBodySchema, response: { 200: CurrentUserSchema } };
export const byIdSchema = { querystring: ByIdQuerySchema, response: { 200: PublicUserSchema } };
export const byIdsSchema = { querystring: ByIdsQuerySchema, response: { 200: Type.Array(PublicUserSchema) } };
export const resetConfirmSchema = { body: ResetConfirmBodySchema };
export const setPasswordSchema = { body: SetPasswordBodySchema };
export const telegramLinkSchema = { body: TelegramLinkBodySchema, response: { 200: CurrentUserSchema } };
export const credentialsSchema = { body: CredentialsBodySchema, response: { 200: CurrentUserSchema } };
export const telegramStartSchema = { body: TelegramIdentityBodySchema, response: { 201: CurrentUserSchema } };
export const telegramAttachSchema = { body: TelegramIdentityBodySchema, response: { 200: CurrentUserSchema } };
