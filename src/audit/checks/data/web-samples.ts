import { type ContentFamily, each } from './web-content.ts';

/**
 * Sample applications and manuals that application and web servers install
 * beside the real site (Nessus "Apache Tomcat Default Files", Greenbone's
 * "default files" NVTs), and the HTTP face of ZooKeeper's admin commands,
 * as rows of the web-content table (web/exposed-files.ts makes the check). Signatures are the pages' own
 * titles and headings, quoted from the files the packages install (Debian
 * tomcat10-examples, tomcat10-docs, apache2-doc); a page that says the same
 * for a random path (a catch-all) is not counted (web/lib/content.ts).
 */
export const SAMPLE_FAMILIES: readonly ContentFamily[] = [
  {
    id: 'vigil.http.sample-apps',
    shortid: 'HTTP-SAMPLE-APPS',
    title: 'Sample applications or server manuals installed (Tomcat examples and docs, Apache manual)',
    risk: 'medium',
    type: 'NOTE',
    description:
      "The server still serves the example applications or the manual it was installed with. The examples were written to show features, not to be safe: Tomcat's snoop.jsp and RequestInfoExample echo the request, the server's paths and the client's headers, SessionExample lets anyone store attributes in a session, and several examples had cross-site scripting flaws (CVE-2007-1355, CVE-2009-0781); the manuals name the exact version.",
    solution:
      "Remove the sample and documentation applications from production servers (Debian: apt-get remove tomcat10-examples tomcat10-docs apache2-doc; or delete webapps/examples and webapps/docs, or the /manual alias), or restrict them to administrators' addresses.",
    lead: 'Sample or documentation pages answer',
    candidates: [
      // snoop.jsp: "<h1> Request Information </h1>" then "JSP Request Method: GET".
      {
        path: '/examples/jsp/snp/snoop.jsp',
        what: 'Tomcat JSP example snoop.jsp',
        sig: (a) => /Request Information/.test(a.body) && /JSP Request Method:/.test(a.body),
      },
      // The servlet examples' titles come from LocalStrings.properties (requestinfo.title, helloworld.title, sessions.title).
      {
        path: '/examples/servlets/servlet/RequestInfoExample',
        what: 'Tomcat servlet example RequestInfoExample',
        sig: (a) => /<title>Request Information Example<\/title>/i.test(a.body),
      },
      {
        path: '/examples/servlets/servlet/SessionExample',
        what: 'Tomcat servlet example SessionExample',
        sig: (a) => /<title>Sessions Example<\/title>/i.test(a.body),
      },
      {
        path: '/examples/servlets/servlet/HelloWorldExample',
        what: 'Tomcat servlet example HelloWorldExample',
        sig: (a) => /<title>Hello World!<\/title>/.test(a.body),
      },
      // The documentation index: "<title>Apache Tomcat 10 (10.1.x) - Documentation Index</title>".
      ...each(['/docs/', '/tomcat-docs/'], 'Tomcat documentation', (a) =>
        /<title>Apache Tomcat [^<]{0,40}Documentation Index<\/title>/i.test(a.body),
      ),
      // apache2-doc's index: "<title>Apache HTTP Server Version 2.4 Documentation - …".
      ...each(['/manual/', '/manual/en/index.html'], 'Apache HTTP Server manual', (a) =>
        /<title>Apache HTTP Server Version [\d.]+ Documentation/i.test(a.body),
      ),
    ],
  },
  {
    id: 'vigil.http.zookeeper-admin',
    shortid: 'HTTP-ZK-ADMIN',
    title: 'ZooKeeper AdminServer commands open to anyone',
    risk: 'medium',
    type: 'NOTE',
    description:
      "ZooKeeper's AdminServer (Jetty, port 8080 on every address by default since 3.5) answers its admin commands over HTTP without authentication: the server's environment (host name, user, Java class path), its configuration and every client connection, the same as the four-letter words, which its whitelist does not restrict.",
    solution:
      'Set admin.enableServer=false in zoo.cfg, or bind it to a management address (admin.serverAddress) behind a firewall; ZooKeeper 3.9 adds authentication for the commands.',
    lead: 'ZooKeeper admin commands answer without authentication',
    // The AdminServer's JSON names the command it ran ("command" : "environment", CommandResponse.toMap).
    candidates: [
      {
        path: '/commands/environment',
        what: 'environment',
        sig: (a) => /"command"\s*:\s*"environment"/.test(a.body) && /"zookeeper\.version"/.test(a.body),
      },
      {
        path: '/commands/configuration',
        what: 'configuration',
        sig: (a) => /"command"\s*:\s*"configuration"/.test(a.body) && /"data_dir"|"client_port"/.test(a.body),
      },
      {
        path: '/commands/connections',
        what: 'client connections',
        sig: (a) => /"command"\s*:\s*"connections"/.test(a.body),
      },
    ],
  },
];
