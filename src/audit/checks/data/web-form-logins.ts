import type { Risk } from '../../engine/types.ts';

/**
 * Web applications whose login is an HTML form (web/lib/form-login.ts),
 * in the shape of data/web-admin-defaults.ts's rows: how the product's
 * login page is recognised, where it is (the site root first, where the
 * application is the whole site, then Debian's alias), the form's user and
 * password fields (every other field, hidden anti-CSRF tokens included, is
 * read from the form as served), the few default pairs, and what only a
 * logged-in page carries. A login page coming back is never proof: the
 * marker must be absent from the login page itself (checked on every run).
 */
export interface FormLoginRow {
  /** As the report names it. */
  product: string;
  /** Paths of the login page (GET, no cookies). */
  paths: readonly string[];
  /** What the product's login page carries (in its 200 answer). */
  page: RegExp;
  /** What names the product on any of its pages, logged in or not (admin-open asks it beside the proof). */
  brand: RegExp;
  /** Names of the form's user and password fields: the form whose password field has that name is submitted. */
  fields: { user: string; password: string };
  /** Where the pairs come from, for the report. */
  source: string;
  pairs: readonly (readonly [user: string, password: string])[];
  /** As in web-admin-defaults.ts: the product's own shipped, documented default (safe), else guesses (intrusive). */
  shipped?: true;
  /** What only a logged-in answer carries, on the answer to the POST or a page its redirects lead to (first group quoted). */
  proof: RegExp;
  risk: Risk;
}

/**
 * phpMyAdmin logs in to the database server behind it (cookie auth, the
 * default): its defaults are the database's. An empty root password is what
 * MySQL and MariaDB installs long shipped and what XAMPP and WAMP still do
 * (the database checks try it as safe, checks/databases/mysql-empty-root.ts);
 * phpMyAdmin refuses empty passwords unless AllowNoPassword is set, and
 * then the login proves it. root/root (MAMP) and root/password are guesses.
 * Proof: the logged-in page's log-out link, which the login page has not.
 */
const PMA = {
  product: 'phpMyAdmin',
  paths: ['/', '/phpmyadmin/', '/phpMyAdmin/'],
  page: /name="pma_password"/,
  brand: /phpMyAdmin/,
  fields: { user: 'pma_username', password: 'pma_password' },
  // The navigation panel's log-out link (templates/navigation/main.twig in 5.x, logout.php in 4.x).
  proof: /class="logout[^"]*"[^>]*href="([^"]*logout[^"]*)"|href="([^"]*logout[^"]*)"[^>]*class="logout/,
  risk: 'high' as const,
};

export const FORM_LOGINS: readonly FormLoginRow[] = [
  {
    ...PMA,
    source: "the database's install default: an empty root password, as XAMPP and WAMP ship it",
    pairs: [['root', '']],
    shipped: true,
  },
  {
    ...PMA,
    source: "a root password of bundles and tutorials: MAMP's",
    pairs: [
      ['root', 'root'],
      ['root', 'password'],
    ],
  },
  {
    // Cacti 1.2 (cacti.sql: user_auth admin, md5('admin'), must_change_password on). A forced change at first
    // login still means the default logged in: the change-password form (auth_changepassword.php, with the
    // current password asked) is served only to that session; after it, lib/functions.php's "Logged in as".
    product: 'Cacti',
    paths: ['/', '/cacti/'],
    page: /<title>Login to Cacti|\bCacti\b[\s\S]*name=['"]login_password['"]/,
    brand: /\bCacti\b/,
    fields: { user: 'login_username', password: 'login_password' },
    source: "Cacti's shipped admin account, in its cacti.sql",
    pairs: [['admin', 'admin']],
    shipped: true,
    proof:
      /Logged in as <span id='user'[^>]*>(?!guest<)([^<]+)<\/span>|<legend>(Change Password)<\/legend>[\s\S]{0,800}name='current_password'/,
    risk: 'high',
  },
  {
    // Zabbix frontend (data.sql: users Admin, password "zabbix", in the Zabbix administrators group).
    product: 'Zabbix frontend',
    paths: ['/', '/zabbix/'],
    // include/views/general.login.php: fields name and password, the button "enter"; the footer names Zabbix SIA.
    page: /(?=[\s\S]*name="password")[\s\S]*(?:Zabbix SIA|<title>[^<]*Zabbix)/i,
    brand: /Zabbix/,
    fields: { user: 'name', password: 'password' },
    source: "Zabbix's shipped Admin account, in its database's data.sql",
    pairs: [['Admin', 'zabbix']],
    shipped: true,
    // The main menu's sign-out item (CMenuHelper.php), on every page of a signed-in user; not on the login page.
    proof: /class="[^"]*icon-signout[^"]*"[^>]*>[\s\S]{0,200}?(Sign out)|(Sign out)<\/a>/,
    risk: 'high',
  },
];
