// The README's example: create a contact, email it, and walk the contact list page by page.
//   BASE_URL=http://127.0.0.1:8000 API_KEY=hbk_... node build/examples/quickstart.js
// It can run any number of times: each POST carries a fresh Idempotency-Key.
import { randomUUID } from "node:crypto";

import { createHomebaseClient, type Schema } from "../src/index.js";

const apiKey = process.env.API_KEY;
if (!apiKey) {
  console.error("set API_KEY to an API key (hbk_...) with contacts:read, contacts:write and messages:send");
  process.exit(2);
}
const api = createHomebaseClient({
  baseUrl: process.env.BASE_URL ?? "http://127.0.0.1:8000",
  credential: apiKey,
});

function failed(what: string, envelope: Schema<"ErrorEnvelope">, status: number): never {
  const { code, message, request_id, details } = envelope.error;
  const fields = (details?.errors ?? []).map((item) => `${item.field}: ${item.message}`);
  throw new Error(`${what}: ${status} ${code}: ${message} ${fields.join("; ")} (${request_id})`);
}

// A key names one intended request: a retry of that request reuses it (and is answered
// with the first answer, Idempotent-Replayed: true); a new request gets a new key.
const created = await api.POST("/v1/contacts", {
  params: { header: { "Idempotency-Key": randomUUID() } },
  body: { first_name: "Dana", last_name: "Example", email: "dana@example.com", tags: ["buyer"] },
});
if (created.error) failed("create contact", created.error, created.response.status);
const contact = created.data;
console.log(`contact ${contact.id} (${contact.first_name} ${contact.last_name})`);

const sent = await api.POST("/v1/messages", {
  params: { header: { "Idempotency-Key": randomUUID() } },
  body: { channel: "EMAIL", contact_id: contact.id, subject: "Welcome", body: "Hello Dana" },
});
if (sent.error) failed("send email", sent.error, sent.response.status);
console.log(`message ${sent.data.id}: ${sent.data.status}`);

// Lists are pages, newest first: follow next_cursor while has_more.
let cursor: string | undefined;
let listed = 0;
do {
  const page = await api.GET("/v1/contacts", { params: { query: { limit: 100, cursor } } });
  if (page.error) failed("list contacts", page.error, page.response.status);
  listed += page.data.data.length;
  cursor = page.data.has_more ? (page.data.next_cursor ?? undefined) : undefined;
} while (cursor !== undefined);
console.log(`${listed} contacts listed`);
