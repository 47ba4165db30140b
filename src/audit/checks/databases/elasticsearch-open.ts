import { defineCheck } from '../kit.ts';
import type { Service } from '../../engine/types.ts';
import { httpRequest } from '../../proto/http.ts';
import { shown } from '../../proto/talk.ts';

/** A web answer that is Elasticsearch's root document, wherever detection saw it. */
const answersClusterName = (s: Service) => !!s.http?.body.includes('"cluster_name"');

export default defineCheck({
  id: 'vigil.elasticsearch.open',
  shortid: 'ES-OPEN',
  title: 'Elasticsearch open without authentication',
  family: 'Databases',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description: 'The Elasticsearch REST API answers without credentials: every index can be read or deleted.',
  solution:
    'Enable security (xpack.security.enabled: true in elasticsearch.yml) with passwords for the built-in users, and keep the API off public interfaces.',
  ports: { services: ['elasticsearch', 'wap-wsp'], ports: [9200], where: answersClusterName },
  run: async ({ net, port }) => {
    const root = await httpRequest(net, port, false);
    if (!root || root.status !== 200 || !/"cluster_name"/.test(root.body) || !/"number"\s*:/.test(root.body))
      return null;
    const indices = await httpRequest(net, port, false, { target: '/_cat/indices?h=index' });
    const list = indices?.status === 200 ? indices.body.split('\n').filter(Boolean).slice(0, 10).join(', ') : '';
    const version = /"number"\s*:\s*"([^"]{1,20})"/.exec(root.body)?.[1] ?? '?';
    return `GET / answered without credentials (version ${shown(version, 20)})${list ? `; indices: ${shown(list)}` : ''}`;
  },
});
