/**
 * The OCI distribution API (https://github.com/opencontainers/distribution-spec/blob/main/spec.md),
 * which Docker's registry, Harbor, GitLab's, Nexus, Artifactory and Quay
 * serve: `GET /v2/` answers 200 to a client it lets in and 401 with a
 * WWW-Authenticate challenge otherwise; `GET /v2/_catalog` lists
 * repositories; `POST /v2/<name>/blobs/uploads/` opens an upload session
 * (202 with a Location), which `DELETE <location>` cancels.
 */
import type { Net } from '../engine/types.ts';
import { type HttpAnswer, httpRequest } from './http.ts';

const ask = (net: Net, port: number, tls: boolean, method: string, target: string) =>
  httpRequest(net, port, tls, { method, target, timeoutMs: 5000, maxBytes: 32768 });

/** GET /v2/ answered 200 with the distribution API's version header (or a JSON body): a registry that let us in. */
export async function registryBase(net: Net, port: number, tls: boolean): Promise<HttpAnswer | null> {
  const a = await ask(net, port, tls, 'GET', '/v2/');
  if (!a || a.status !== 200) return null;
  const api = a.headers['docker-distribution-api-version'];
  return api || /^\s*\{/.test(a.body) ? a : null;
}

/** The repositories GET /v2/_catalog lists, or null when it is refused or not JSON. */
export async function registryCatalog(
  net: Net,
  port: number,
  tls: boolean,
): Promise<{ repositories: string[]; status: number } | null> {
  const a = await ask(net, port, tls, 'GET', '/v2/_catalog?n=50');
  if (!a || a.status !== 200) return null;
  try {
    const j = JSON.parse(a.raw.toString('utf8')) as { repositories?: unknown };
    return Array.isArray(j.repositories) ? { repositories: j.repositories.map(String), status: a.status } : null;
  } catch {
    return null;
  }
}

export interface UploadProof {
  started: string;
  location: string;
  uuid: string | null;
  cancelled: number | null;
}

/** Starts a blob upload for `repository` and cancels it at once: a write (intrusive checks only). */
export async function registryUploadAndCancel(
  net: Net,
  port: number,
  tls: boolean,
  repository: string,
): Promise<UploadProof | null> {
  const target = `/v2/${repository}/blobs/uploads/`;
  const a = await ask(net, port, tls, 'POST', target);
  const location = a?.headers.location;
  if (!a || a.status !== 202 || !location) return null;
  // Location may be absolute (http://host/v2/…): the cancel goes to the same port, by path.
  const path = location.replace(/^[a-z]+:\/\/[^/]+/i, '');
  const d = path.startsWith('/v2/') ? await ask(net, port, tls, 'DELETE', path) : null;
  return {
    started: `POST ${target} answered 202 Accepted`,
    location: path.split('?')[0]!,
    uuid: a.headers['docker-upload-uuid'] ?? null,
    cancelled: d?.status ?? null,
  };
}
