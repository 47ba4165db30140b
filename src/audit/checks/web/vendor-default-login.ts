import { defineCheck } from '../kit.ts';
import { isHttpService } from '../../proto/http.ts';
import { loginRun } from './lib/admin-login.ts';

/**
 * A web admin page that still has the product's own shipped default
 * (data/web-admin-defaults.ts rows marked `shipped`: RabbitMQ's guest,
 * ActiveMQ's jetty-realm.properties, Monit's monitrc, the Felix console):
 * the login the product's documentation itself names, tried once per
 * shipped pair on a product recognised by its 401, as `norisk` tries
 * anonymous FTP or a database's empty root password. Tutorial pairs and
 * guesses are default-credentials.ts's (advanced only). Proof as there:
 * the logged-in page's marker (lib/admin-login.ts), over HTTP Basic or
 * Digest, or through the product's login form (lib/form-login.ts: Cacti's
 * admin/admin, Zabbix's Admin/zabbix, phpMyAdmin on an empty root password).
 */
export default defineCheck({
  id: 'vigil.web.vendor-default-login',
  shortid: 'WEB-VENDOR-DEFAULT',
  title: "Web admin page accepts the product's shipped default password",
  family: 'Web Servers',
  // One documented login per shipped pair: what the product's own documentation tells its users to try first.
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "A web administration page (Monit, RabbitMQ's management API, ActiveMQ's console, the Felix web console, Cacti's and Zabbix's login forms, phpMyAdmin on a database root without a password …) still accepts the user and password the product ships with and documents: anyone who reaches it can do what its administrator does (stop services through Monit, read and delete queues, deploy bundles, run SQL as root).",
  solution:
    'Change or remove the shipped account (monitrc `allow user:password`, `rabbitmqctl delete_user guest`, jetty-realm.properties, the console\u2019s configured user) and let only administrators\u2019 addresses reach the page, over HTTPS.',
  references: [
    'https://mmonit.com/monit/documentation/monit.html#AUTHENTICATION',
    'https://www.rabbitmq.com/access-control.html',
    'https://activemq.apache.org/web-console',
  ],
  ports: { where: isHttpService, ports: [2812, 8080, 8161, 8443, 15672] },
  run: loginRun('shipped'),
});
