import { defineCheck } from '../kit.ts';
import { DEFAULT_PAGES, hasHttpAnswer } from './lib/pages.ts';

export default defineCheck({
  id: 'vigil.http.default-page',
  shortid: 'HTTP-DEFAULT-PAGE',
  title: 'Web server default page',
  family: 'Web Servers',
  categories: ['safe', 'passive', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The server shows the page it was installed with: it is probably unmaintained, and the page reveals the software.',
  solution:
    'Remove the default site (Debian Apache: a2dissite 000-default; nginx: delete the default server) and serve only your own content.',
  ports: { where: hasHttpAnswer },
  async run({ service }) {
    const h = service?.http;
    if (!h) return null;

    const hit = DEFAULT_PAGES.find(([re]) => re.test(h.body));
    return hit ? `GET / shows the ${hit[1]}.` : null;
  },
});
