import { z } from 'zod';

/** How gateways' broker accounts follow Roost (the README's "Broker accounts kept in sync"). */
export interface BrokerAuthConfig {
  /**
   * With an external Mosquitto: the dynamic security plugin's administrator, whom Roost signs
   * in as (at MQTT_URL's host and port) to keep one client per gateway there. Null: not managed.
   */
  dynsec: { url: string; username: string; password: string } | null;
  /** With EMQX: the shared secret its HTTP authentication and authorization calls carry. */
  emqxSecret: string | null;
  /**
   * With EMQX: its REST API (base address, API key and secret), through which Roost ends the
   * open sessions of a gateway whose token was rotated or that was deleted. Null: not cut.
   */
  emqxApi: EmqxApiConfig | null;
}

export interface EmqxApiConfig {
  url: string;
  key: string;
  secret: string;
}

const secret = (name: string) =>
  z
    .string()
    .min(16, `${name} must have at least 16 characters`)
    .regex(/^[\x21-\x7e]+$/, `${name} must be printable ASCII without spaces`);

export const brokerAuthEnvSchema = z.object({
  ROOST_DYNSEC_USER: z.string().trim().min(1).optional(),
  ROOST_DYNSEC_PASSWORD: z.string().min(1).optional(),
  ROOST_EMQX_SECRET: secret('ROOST_EMQX_SECRET').optional(),
  ROOST_EMQX_API_URL: z
    .string()
    .refine((v) => /^https?:\/\/[^/]/.test(v) && URL.canParse(v), {
      message: 'ROOST_EMQX_API_URL must be a URL starting with http:// or https://',
    })
    .optional(),
  ROOST_EMQX_API_KEY: z.string().trim().min(1).optional(),
  ROOST_EMQX_API_SECRET: z.string().min(1).optional(),
});

/** Throws a one-line message for a start that cannot work. */
export function brokerAuthConfigOf(
  e: z.infer<typeof brokerAuthEnvSchema>,
  mqttUrl: string | undefined,
): BrokerAuthConfig {
  let dynsec: BrokerAuthConfig['dynsec'] = null;
  if (e.ROOST_DYNSEC_USER || e.ROOST_DYNSEC_PASSWORD) {
    if (!e.ROOST_DYNSEC_USER || !e.ROOST_DYNSEC_PASSWORD)
      throw new Error('ROOST_DYNSEC_USER and ROOST_DYNSEC_PASSWORD go together');
    if (!mqttUrl)
      throw new Error('ROOST_DYNSEC_USER needs MQTT_URL: the Mosquitto whose accounts Roost keeps');
    const url = new URL(mqttUrl);
    url.username = '';
    url.password = '';
    dynsec = {
      url: url.toString(),
      username: e.ROOST_DYNSEC_USER,
      password: e.ROOST_DYNSEC_PASSWORD,
    };
  }
  let emqxApi: EmqxApiConfig | null = null;
  const api = [e.ROOST_EMQX_API_URL, e.ROOST_EMQX_API_KEY, e.ROOST_EMQX_API_SECRET];
  if (api.some(Boolean)) {
    if (!api.every(Boolean))
      throw new Error(
        'ROOST_EMQX_API_URL, ROOST_EMQX_API_KEY and ROOST_EMQX_API_SECRET go together',
      );
    emqxApi = {
      url: e.ROOST_EMQX_API_URL!.replace(/\/+$/, ''),
      key: e.ROOST_EMQX_API_KEY!,
      secret: e.ROOST_EMQX_API_SECRET!,
    };
  }
  return { dynsec, emqxSecret: e.ROOST_EMQX_SECRET ?? null, emqxApi };
}
