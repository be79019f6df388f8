// The Homebase API client: openapi-fetch typed by the generated schema.d.ts
// (`make client`; never edit that file by hand). README.md beside src/ shows its use.
import createClient, { mergeHeaders, type Client, type ClientOptions } from "openapi-fetch";

import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths };

/** A component of the document by name: `Schema<"Contact">`, `Schema<"ErrorEnvelope">`. */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];

export type HomebaseClient = Client<paths>;

export interface HomebaseClientOptions extends ClientOptions {
  /** The service's root, without /v1 (the paths include it): `https://api.example.com`. */
  baseUrl: string;
  /** An API key (`hbk_...`) or an OAuth app's access token (`hbo_at_...`). */
  credential: string;
}

/**
 * The Authorization header's value for a credential: `token hbk_...` for an API key,
 * `Bearer hbo_at_...` for an OAuth access token (the document's ApiKey and OAuth2 schemes).
 */
export function authorization(credential: string): string {
  if (credential.trim() !== credential || credential === "") {
    throw new TypeError("credential must be a non-empty key without surrounding spaces");
  }
  return credential.startsWith("hbo_") ? `Bearer ${credential}` : `token ${credential}`;
}

/**
 * openapi-fetch's client for every /v1 path, sending `credential` on each request.
 * Every other option is openapi-fetch's (`fetch`, `headers`, `querySerializer`, ...).
 */
export function createHomebaseClient(options: HomebaseClientOptions): HomebaseClient {
  const { credential, headers, ...rest } = options;
  return createClient<paths>({
    ...rest,
    headers: mergeHeaders(headers, { Authorization: authorization(credential) }),
  });
}
