/**
 * Where the Prometheus-stack checks ask: an HTTP port the stack usually
 * listens on (Prometheus 9090, the Pushgateway 9091, Alertmanager 9093),
 * or any HTTP port whose GET / detection read names a component of it
 * (proto/prometheus.ts stackProduct: a Prometheus moved to 80 or 8080
 * behind nothing, Thanos's query page). Other web servers are not asked,
 * so these checks cost nothing on an ordinary site. 9091 is also
 * Transmission's RPC port: the checks ask both alike and only the stack's
 * own JSON answers (its `status`/`data` envelope) count.
 */
import type { Service } from '../../../engine/types.ts';
import { isHttpService, usesTls } from '../../../proto/http.ts';
import { stackProduct } from '../../../proto/prometheus.ts';

export const STACK_PORTS = [9090, 9091, 9093];

export const promStackCandidate = (s: Service) =>
  isHttpService(s) && (STACK_PORTS.includes(s.port) || stackProduct(s.http) !== null);

export const tlsOf = (service: Service | null) => !!service && usesTls(service);
