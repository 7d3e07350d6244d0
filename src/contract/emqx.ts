import { z } from 'zod';

/**
 * EMQX's HTTP authentication and authorization calls, in the bodies the README tells an
 * operator to configure (EMQX fills `${clientid}`, `${username}`, `${password}`, `${action}`,
 * `${topic}`), and Roost's answers in the shape EMQX reads: `result` allow, deny or ignore.
 */
export const emqxAuthnRequestSchema = z.object({
  clientid: z.string().max(256).default(''),
  username: z.string().max(256).default(''),
  password: z.string().max(1024).default(''),
});

export const emqxAuthzRequestSchema = z.object({
  clientid: z.string().max(256).default(''),
  username: z.string().max(256).default(''),
  action: z.enum(['publish', 'subscribe', 'all']),
  topic: z.string().max(65_535),
});

export const emqxResultSchema = z.enum(['allow', 'deny', 'ignore']);

export const emqxAuthnAnswerSchema = z.object({
  result: emqxResultSchema,
  is_superuser: z.boolean(),
});

export const emqxAuthzAnswerSchema = z.object({ result: emqxResultSchema });
