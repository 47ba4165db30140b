/**
 * The TCP ports each audit type scans, and the service usually found on a
 * port (for the report's port list).
 *
 * Source: /usr/share/nmap/nmap-services (nmap 7.9x), TCP entries sorted by
 * open-frequency, highest first; taken once and stored here so that the
 * engine never reads nmap's files at run time. The lists equal what
 * `nmap --top-ports 100|1000` scans (checked with -oG when generated).
 */
import type { AuditType } from '../types.ts';

/** nmap --top-ports 100 (TCP), as nmap-style ranges. */
const TOP_100 =
  '7,9,13,21-23,25-26,37,53,79-81,88,106,110-111,113,119,135,139,143-144,179,199,389,427,443-445,465,513-515,543-544,548,554,587,631,646,873,990,993,995,1025-1029,1110,1433,1720,1723,1755,1900,2000-2001,2049,2121,2717,3000,3128,3306,3389,3986,4899,5000,5009,5051,5060,5101,5190,5357,5432,5631,5666,5800,5900,6000-6001,6646,7070,8000,8008-8009,8080-8081,8443,8888,9100,9999-10000,32768,49152-49157';

/** nmap --top-ports 1000 (TCP), as nmap-style ranges. */
const TOP_1000 = `
  1,3-4,6-7,9,13,17,19-26,30,32-33,37,42-43,49,53,70,79-85,88-90,99-100,106,
  109-111,113,119,125,135,139,143-144,146,161,163,179,199,211-212,222,254-256,259,
  264,280,301,306,311,340,366,389,406-407,416-417,425,427,443-445,458,464-465,481,
  497,500,512-515,524,541,543-545,548,554-555,563,587,593,616-617,625,631,636,646,
  648,666-668,683,687,691,700,705,711,714,720,722,726,749,765,777,783,787,800-801,
  808,843,873,880,888,898,900-903,911-912,981,987,990,992-993,995,999-1002,1007,
  1009-1011,1021-1100,1102,1104-1108,1110-1114,1117,1119,1121-1124,1126,1130-1132,
  1137-1138,1141,1145,1147-1149,1151-1152,1154,1163-1166,1169,1174-1175,1183,1185-1187,
  1192,1198-1199,1201,1213,1216-1218,1233-1234,1236,1244,1247-1248,1259,1271-1272,1277,
  1287,1296,1300-1301,1309-1311,1322,1328,1334,1352,1417,1433-1434,1443,1455,1461,1494,
  1500-1501,1503,1521,1524,1533,1556,1580,1583,1594,1600,1641,1658,1666,1687-1688,
  1700,1717-1721,1723,1755,1761,1782-1783,1801,1805,1812,1839-1840,1862-1864,1875,1900,
  1914,1935,1947,1971-1972,1974,1984,1998-2010,2013,2020-2022,2030,2033-2035,2038,
  2040-2043,2045-2049,2065,2068,2099-2100,2103,2105-2107,2111,2119,2121,2126,2135,2144,
  2160-2161,2170,2179,2190-2191,2196,2200,2222,2251,2260,2288,2301,2323,2366,2381-2383,
  2393-2394,2399,2401,2492,2500,2522,2525,2557,2601-2602,2604-2605,2607-2608,2638,
  2701-2702,2710,2717-2718,2725,2800,2809,2811,2869,2875,2909-2910,2920,2967-2968,2998,
  3000-3001,3003,3005-3007,3011,3013,3017,3030-3031,3052,3071,3077,3128,3168,3211,3221,
  3260-3261,3268-3269,3283,3300-3301,3306,3322-3325,3333,3351,3367,3369-3372,3389-3390,
  3404,3476,3493,3517,3527,3546,3551,3580,3659,3689-3690,3703,3737,3766,3784,
  3800-3801,3809,3814,3826-3828,3851,3869,3871,3878,3880,3889,3905,3914,3918,3920,
  3945,3971,3986,3995,3998,4000-4006,4045,4111,4125-4126,4129,4224,4242,4279,4321,
  4343,4443-4446,4449,4550,4567,4662,4848,4899-4900,4998,5000-5004,5009,5030,5033,
  5050-5051,5054,5060-5061,5080,5087,5100-5102,5120,5190,5200,5214,5221-5222,5225-5226,
  5269,5280,5298,5357,5405,5414,5431-5432,5440,5500,5510,5544,5550,5555,5560,5566,
  5631,5633,5666,5678-5679,5718,5730,5800-5802,5810-5811,5815,5822,5825,5850,5859,5862,
  5877,5900-5904,5906-5907,5910-5911,5915,5922,5925,5950,5952,5959-5963,5987-5989,
  5998-6007,6009,6025,6059,6100-6101,6106,6112,6123,6129,6156,6346,6389,6502,6510,
  6543,6547,6565-6567,6580,6646,6666-6669,6689,6692,6699,6779,6788-6789,6792,6839,6881,
  6901,6969,7000-7002,7004,7007,7019,7025,7070,7100,7103,7106,7200-7201,7402,7435,
  7443,7496,7512,7625,7627,7676,7741,7777-7778,7800,7911,7920-7921,7937-7938,7999-8002,
  8007-8011,8021-8022,8031,8042,8045,8080-8090,8093,8099-8100,8180-8181,8192-8194,8200,
  8222,8254,8290-8292,8300,8333,8383,8400,8402,8443,8500,8600,8649,8651-8652,8654,
  8701,8800,8873,8888,8899,8994,9000-9003,9009-9011,9040,9050,9071,9080-9081,9090-9091,
  9099-9103,9110-9111,9200,9207,9220,9290,9415,9418,9485,9500,9502-9503,9535,9575,
  9593-9595,9618,9666,9876-9878,9898,9900,9917,9929,9943-9944,9968,9998-10004,
  10009-10010,10012,10024-10025,10082,10180,10215,10243,10566,10616-10617,10621,10626,
  10628-10629,10778,11110-11111,11967,12000,12174,12265,12345,13456,13722,13782-13783,
  14000,14238,14441-14442,15000,15002-15004,15660,15742,16000-16001,16012,16016,16018,
  16080,16113,16992-16993,17877,17988,18040,18101,18988,19101,19283,19315,19350,19780,
  19801,19842,20000,20005,20031,20221-20222,20828,21571,22939,23502,24444,24800,
  25734-25735,26214,27000,27352-27353,27355-27356,27715,28201,30000,30718,30951,31038,
  31337,32768-32785,33354,33899,34571-34573,35500,38292,40193,40911,41511,42510,44176,
  44442-44443,44501,45100,48080,49152-49161,49163,49165,49167,49175-49176,49400,
  49999-50003,50006,50300,50389,50500,50636,50800,51103,51493,52673,52822,52848,52869,
  54045,54328,55055-55056,55555,55600,56737-56738,57294,57797,58080,60020,60443,61532,
  61900,62078,63331,64623,64680,65000,65129,65389
`;

/**
 * Workstation services beyond the top 100: RPC 135, NetBIOS 137-139, SMB 445,
 * RDP 3389, VNC 5900-5910 (+ its HTTP viewer 5800-5810, listener 5500),
 * WinRM 5985-5986, Radmin 4899, TeamViewer 5938, Citrix ICA 1494/2598,
 * pcAnywhere 5631-5632, Apple Remote Desktop 3283, AnyDesk 7070; file and
 * device sharing: FTP/FTPS, AFP 548, NFS 111/2049, rsync 873, UPnP 1900,
 * WSD 5357, IPP 631, raw printing 9100.
 */
const DESKTOP_EXTRA =
  '21-23,111,135,137-139,445,548,631,873,990,1494,1900,2049,2598,3283,3389,4899,5357,5500,5631-5632,5800-5810,5900-5910,5938,5985-5986,7070,9100';

/**
 * Ports outside the top 1000 that the catalogue's checks look at (Redis,
 * Memcached, MongoDB, Elasticsearch, MQTT, alternate Telnet and SMTP; the
 * Docker API, etcd, Monit, Firebird, NATS, Munin, AMQP, CouchDB, the
 * Kubernetes API, ActiveMQ's console, Solr, Cassandra, the Zabbix agent,
 * RabbitMQ's management API and Prometheus metrics (15692), STOMP and
 * OpenWire; Privoxy's 8118, the one
 * common forward-proxy port nmap's top 1000 lacks; the Gearman and beanstalkd job
 * queues 4730 and 11300, Varnish's CLI 6082; ZooKeeper's client port 2181; distccd 3632, aria2's
 * JSON-RPC 6800 and the debuggers' 5005 (JDWP), 9222 and 9229 (DevTools), which run code or write files
 * for anyone when left open; the control ports of OpenVPN's
 * management interface 7505, Unbound's remote control 8953 and Tor's ControlPort 9051; MPD's 6600, a music
 * player anyone may control when it has no password; Alertmanager's 9093 and 9094 (its API and its
 * cluster's gossip), which mute every alert when open; the web terminals' 4200 (Shell In A Box) and 7681 (ttyd) and uWSGI's stats server 9191; NBD's 10809, whose
 * exports anyone may attach when no authfile or TLS guards them; the admin APIs of Caddy 2019 and Envoy 9901, which
 * replace the server's configuration or stop it for anyone when reachable): a norisk or standard audit
 * must not miss an open database, broker, agent or proxy because nmap's frequency
 * table ranks its port low.
 */
const CHECKED_EXTRA =
  '1883,2019,2181,2323,2375,2379,2525,2812,3050,3632,4200,4222,4730,4949,5005,5672,5984,6082,6379,6443,6600,6800,7505,7681,8161,8953,8983,8118,9042,9051,9093-9094,9191,9200,9222,9229,9901,10050,10809,11211,11300,15672,15692,27017-27018,61613,61616';

/** Parses '1,3-4,7' into sorted unique numbers within 1-65535. */
export function parsePortRanges(spec: string): number[] {
  const set = new Set<number>();
  for (const part of spec.split(',')) {
    const m = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(part);
    if (!m) continue;
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    for (let p = Math.max(1, a); p <= Math.min(65535, b); p++) set.add(p);
  }
  return [...set].sort((x, y) => x - y);
}

const cache = new Map<AuditType, readonly number[]>();

/** The TCP ports an audit type scans, sorted ascending. */
export function portsFor(auditType: AuditType): readonly number[] {
  let ports = cache.get(auditType);
  if (!ports) {
    const spec =
      auditType === 'basic'
        ? TOP_100
        : auditType === 'desktop'
          ? `${TOP_100},${DESKTOP_EXTRA}`
          : auditType === 'advanced'
            ? '1-65535'
            : `${TOP_1000},${CHECKED_EXTRA}`; // norisk, standard
    ports = Object.freeze(parsePortRanges(spec.replace(/\s+/g, '')));
    cache.set(auditType, ports);
  }
  return ports;
}

/**
 * nmap-services names of the ~240 most frequent TCP ports plus the desktop,
 * database and directory ports above (port:name, same source).
 */
const NAMES = `
  1:tcpmux 3:compressnet 7:echo 9:discard 13:daytime 17:qotd 19:chargen 20:ftp-data 21:ftp 22:ssh
  23:telnet 24:priv-mail 25:smtp 26:rsftp 33:dsp 37:time 53:domain 79:finger 80:http 81:hosts2-ns
  82:xfer 88:kerberos-sec 100:newacct 106:pop3pw 110:pop3 111:rpcbind 113:ident 119:nntp 135:msrpc
  137:netbios-ns 138:netbios-dgm 139:netbios-ssn 143:imap 144:news 179:bgp 199:smux 222:rsh-spx
  254:unknown 255:unknown 264:bgmp 280:http-mgmt 311:asip-webadmin 389:ldap 407:timbuktu 427:svrloc
  443:https 444:snpp 445:microsoft-ds 464:kpasswd5 465:smtps 497:retrospect 500:isakmp 512:exec
  513:login 514:shell 515:printer 543:klogin 544:kshell 548:afp 554:rtsp 563:snews 587:submission
  593:http-rpc-epmap 625:apple-xsrvr-admin 631:ipp 636:ldapssl 646:ldp 787:qsc 808:ccproxy-http
  853:domain-s 873:rsync 888:accessbuilder 902:iss-realsecure 990:ftps 992:telnets 993:imaps
  995:pop3s 999:garcon 1000:cadlock 1022:exp2 1023:netvenuechat 1024:kdm 1025:NFS-or-IIS
  1026:LSA-or-nterm 1027:IIS 1028:unknown 1029:ms-lsa 1030:iad1 1031:iad2 1032:iad3 1033:netinfo
  1034:zincite-a 1035:multidropper 1036:nsstp 1037:ams 1038:mtqp 1039:sbl 1040:netsaint 1041:danf-ak2
  1042:afrog 1043:boinc 1044:dcutility 1048:neod2 1049:td-postman 1050:java-or-OTGfileshare
  1053:remote-as 1054:brvread 1056:vfo 1058:nim 1059:nimreg 1064:jstel 1065:syscomlan 1066:fpo-fns
  1068:instl_bootc 1069:cognex-insight 1071:bsquare-voip 1074:warmspotMgmt 1080:socks
  1110:nfsd-status 1111:lmsocialserver 1218:aeroflight-ads 1234:hotline 1352:lotusnotes 1433:ms-sql-s
  1494:citrix-ica 1521:oracle 1717:fj-hdnet 1720:h323q931 1723:pptp 1755:wms 1761:landesk-rc
  1801:msmq 1900:upnp 1935:rtmp 1998:x25-svc-port 2000:cisco-sccp 2001:dc 2002:globe 2003:finger
  2004:mailbox 2005:deslogin 2006:invokator 2007:dectalk 2008:conf 2009:news 2049:nfs 2103:zephyr-clt
  2105:eklogin 2107:msmq-mgmt 2121:ccproxy-ftp 2161:apc-agent 2301:compaqdiag 2375:docker 2376:docker
  2383:ms-olap4 2401:cvspserver 2598:citriximaclient 2601:zebra 2717:pn-requester 2869:icslap
  2967:symantec-av 3000:ppp 3001:nessus 3052:powerchute 3128:squid-http 3260:iscsi 3268:globalcatLDAP
  3269:globalcatLDAPssl 3283:netassistant 3306:mysql 3389:ms-wbt-server 3689:rendezvous 3690:svn
  3703:adobeserver-3 3986:mapper-ws_ethd 4000:remoteanything 4001:newoak 4045:lockd 4444:krb524
  4899:radmin 5000:upnp 5001:commplex-link 5003:filemaker 5009:airport-admin 5050:mmcc 5051:ida-agent
  5060:sip 5101:admdog 5120:barracuda-bbs 5190:aol 5353:mdns 5357:wsdapi 5432:postgresql 5500:hotline
  5550:sdadmind 5555:freeciv 5631:pcanywheredata 5632:pcanywherestat 5666:nrpe 5800:vnc-http
  5801:vnc-http-1 5802:vnc-http-2 5803:vnc-http-3 5804:unknown 5806:unknown 5807:unknown 5808:unknown
  5810:unknown 5900:vnc 5901:vnc-1 5902:vnc-2 5903:vnc-3 5904:ag-swim 5905:asmgcs 5906:rpas-c2
  5907:dsd 5908:ipsma 5909:agma 5910:cm 5938:teamviewer 5984:couchdb 5985:wsman 5986:wsmans 6000:X11
  6001:X11:1 6002:X11:2 6004:X11:4 6112:dtspc 6379:redis 6443:sun-sr-https 6543:mythtv 6646:unknown
  6666:irc 7000:afs3-fileserver 7001:afs3-callback 7070:realserver 7100:font-service 7937:nsrexecd
  7938:lgtomapper 8000:http-alt 8002:teradataordbms 8008:http 8009:ajp13 8010:xmpp 8031:unknown
  8080:http-proxy 8081:blackice-icecap 8082:blackice-alerts 8086:d-s-n 8443:https-alt
  8888:sun-answerbook 9000:cslistener 9001:tor-orport 9090:zeus-admin 9100:jetdirect 9102:jetdirect
  9200:wap-wsp 9418:git 9999:abyss 10000:snet-sensor-mgmt 10001:scp-config 10010:rxapi 11211:memcache
  15000:hydap 25565:minecraft 27017:mongod 32768:filenet-tms 32770:sometimes-rpc3
  32771:sometimes-rpc5 32772:sometimes-rpc7 42510:caerpc 49152:unknown 49153:unknown 49154:unknown
  49155:unknown 49156:unknown 49157:unknown 50000:ibm-db2
`;

let names: Map<number, string> | null = null;

/** The service usually on a TCP port (nmap-services name), or 'unknown'. */
export function usualService(port: number): string {
  if (!names) {
    names = new Map();
    for (const pair of NAMES.split(/\s+/)) {
      const i = pair.indexOf(':');
      if (i > 0) names.set(Number(pair.slice(0, i)), pair.slice(i + 1));
    }
  }
  return names.get(port) ?? 'unknown';
}
