import versionsOutdatedProducts from './versions/outdated-products.ts';
import tlsCertExpired from './tls/cert-expired.ts';
import tlsCertExpiring from './tls/cert-expiring.ts';
import tlsCertHostname from './tls/cert-hostname.ts';
import tlsCertNotYetValid from './tls/cert-not-yet-valid.ts';
import tlsCertSelfSigned from './tls/cert-self-signed.ts';
import tlsCertUntrusted from './tls/cert-untrusted.ts';
import tlsCertWeakKey from './tls/cert-weak-key.ts';
import tlsCertWeakSignature from './tls/cert-weak-signature.ts';
import tlsCipherAnon from './tls/cipher-anon.ts';
import tlsCipherDes from './tls/cipher-des.ts';
import tlsCipherExport from './tls/cipher-export.ts';
import tlsCipherNull from './tls/cipher-null.ts';
import tlsCipherRc4 from './tls/cipher-rc4.ts';
import tlsDhWeak from './tls/dh-weak.ts';
import tlsHstsMissing from './tls/hsts-missing.ts';
import tlsSslv3 from './tls/sslv3.ts';
import tlsTls10 from './tls/tls10.ts';
import tlsTls11 from './tls/tls11.ts';
import webBasicAuthCleartext from './web/basic-auth-cleartext.ts';
import webCookieNoHttponly from './web/cookie-no-httponly.ts';
import webCookieNoSecure from './web/cookie-no-secure.ts';
import webCorsAnyOrigin from './web/cors-any-origin.ts';
import webDefaultPage from './web/default-page.ts';
import webDirListing from './web/dir-listing.ts';
import webEnvExposed from './web/env-exposed.ts';
import webExposedFiles from './web/exposed-files.ts';
import webGitExposed from './web/git-exposed.ts';
import webOpenProxy from './web/open-proxy.ts';
import webPasswordFormCleartext from './web/password-form-cleartext.ts';
import webPoweredBy from './web/powered-by.ts';
import webPutAccepted from './web/put-accepted.ts';
import webPutWrite from './web/put-write.ts';
import webSecurityHeaders from './web/security-headers.ts';
import webServerStatus from './web/server-status.ts';
import webServerVersion from './web/server-version.ts';
import webTrace from './web/trace.ts';
import webWebdavOpen from './web/webdav-open.ts';
import webAdminOpen from './web/admin-open.ts';
import webDefaultCredentials from './web/default-credentials.ts';
import webVendorDefaultLogin from './web/vendor-default-login.ts';
import webAjpOpen from './web/ajp-open.ts';
import webAjpFileRead from './web/ajp-file-read.ts';
import webDebuggerExposed from './web/debugger-exposed.ts';
import mailImapCleartextLogin from './mail/imap-cleartext-login.ts';
import mailOpenRelay from './mail/open-relay.ts';
import mailPop3CleartextLogin from './mail/pop3-cleartext-login.ts';
import mailSmtpCleartextAuth from './mail/smtp-cleartext-auth.ts';
import mailUserEnum from './mail/user-enum.ts';
import ftpAnonymousWrite from './ftp/anonymous-write.ts';
import ftpAnonymous from './ftp/anonymous.ts';
import ftpCleartextLogin from './ftp/cleartext-login.ts';
import ftpModCopyUnauthenticated from './ftp/mod-copy-unauthenticated.ts';
import databasesDefaultCredentials from './databases/default-credentials.ts';
import databasesElasticsearchOpen from './databases/elasticsearch-open.ts';
import databasesMemcachedOpen from './databases/memcached-open.ts';
import databasesMongodbNoauth from './databases/mongodb-noauth.ts';
import databasesMysqlEmptyRoot from './databases/mysql-empty-root.ts';
import databasesPostgresqlTrust from './databases/postgresql-trust.ts';
import databasesRedisNoauth from './databases/redis-noauth.ts';
import databasesHttpApiOpen from './databases/http-api-open.ts';
import databasesFirebirdDefaultLogin from './databases/firebird-default-login.ts';
import remoteAccessSshPasswordAuth from './remote-access/ssh-password-auth.ts';
import remoteAccessSshProtocol1 from './remote-access/ssh-protocol1.ts';
import remoteAccessSshWeakAlgorithms from './remote-access/ssh-weak-algorithms.ts';
import remoteAccessSshWeakHostkey from './remote-access/ssh-weak-hostkey.ts';
import remoteAccessRservicesOpen from './remote-access/rservices-open.ts';
import remoteAccessRshTrust from './remote-access/rsh-trust.ts';
import remoteAccessTelnetOpen from './remote-access/telnet-open.ts';
import remoteAccessVncExposed from './remote-access/vnc-exposed.ts';
import remoteAccessVncNoauth from './remote-access/vnc-noauth.ts';
import remoteAccessVncUnencrypted from './remote-access/vnc-unencrypted.ts';
import remoteAccessX11Open from './remote-access/x11-open.ts';
import remoteAccessIkeAggressivePsk from './remote-access/ike-aggressive-psk.ts';
import windowsRdpExposed from './windows/rdp-exposed.ts';
import windowsRdpStandardSecurity from './windows/rdp-standard-security.ts';
import windowsSmbGuestShare from './windows/smb-guest-share.ts';
import windowsSmbSigning from './windows/smb-signing.ts';
import windowsSmbV1 from './windows/smb-v1.ts';
import dnsAxfr from './dns/axfr.ts';
import dnsBindVersion from './dns/bind-version.ts';
import dnsDynamicUpdate from './dns/dynamic-update.ts';
import dnsOpenRecursion from './dns/open-recursion.ts';
import generalFingerUsers from './general/finger-users.ts';
import generalKerberosAsrepRoast from './general/kerberos-asrep-roast.ts';
import generalKerberosUserEnum from './general/kerberos-user-enum.ts';
import generalKerberosWeakEtypes from './general/kerberos-weak-etypes.ts';
import generalRadiusDefaultSecret from './general/radius-default-secret.ts';
import generalIdentUsers from './general/ident-users.ts';
import generalInetdSmallServices from './general/inetd-small-services.ts';
import generalIscsiDiscovery from './general/iscsi-discovery.ts';
import generalIscsiNoauth from './general/iscsi-noauth.ts';
import generalLdapAnonymous from './general/ldap-anonymous.ts';
import generalMqttAnonymous from './general/mqtt-anonymous.ts';
import generalNisMaps from './general/nis-maps.ts';
import generalNseVuln from './general/nse-vuln.ts';
import generalRpcbindDump from './general/rpcbind-dump.ts';
import generalRsyncOpenModule from './general/rsync-open-module.ts';
import generalRusersUsers from './general/rusers-users.ts';
import generalSnmpPublic from './general/snmp-public.ts';
import generalSocksOpenProxy from './general/socks-open-proxy.ts';
import generalSnmpWrite from './general/snmp-write.ts';
import generalTftpRead from './general/tftp-read.ts';
import generalTftpWrite from './general/tftp-write.ts';
import generalAmqpDefaultLogin from './general/amqp-default-login.ts';
import generalNatsNoauth from './general/nats-noauth.ts';
import generalOpenwireAnonymous from './general/openwire-anonymous.ts';
import generalStompAnonymous from './general/stomp-anonymous.ts';
import generalMuninOpen from './general/munin-open.ts';
import generalNrpeOpen from './general/nrpe-open.ts';
import generalZabbixAgentOpen from './general/zabbix-agent-open.ts';
import generalZabbixRemoteCommand from './general/zabbix-remote-command.ts';
import generalRmiRegistry from './general/rmi-registry.ts';
import generalJmxNoauth from './general/jmx-noauth.ts';
import generalJmxDefaultCredentials from './general/jmx-default-credentials.ts';
import generalZookeeper4lw from './general/zookeeper-4lw.ts';
import generalZookeeperAnonymous from './general/zookeeper-anonymous.ts';
import generalZookeeperWrite from './general/zookeeper-write.ts';
import generalBeanstalkdOpen from './general/beanstalkd-open.ts';
import generalBeanstalkdWrite from './general/beanstalkd-write.ts';
import generalGearmanOpen from './general/gearman-open.ts';
import generalCarbonOpen from './general/carbon-open.ts';
import generalCarbonWrite from './general/carbon-write.ts';
import generalVarnishCliOpen from './general/varnish-cli-open.ts';
import generalGitAnonymousPush from './general/git-anonymous-push.ts';
import generalSvnAnonymousWrite from './general/svn-anonymous-write.ts';
import generalRegistryOpen from './general/registry-open.ts';
import generalRegistryPush from './general/registry-push.ts';
import generalDistccOpen from './general/distcc-open.ts';
import generalDistccExec from './general/distcc-exec.ts';
import generalSupervisorRpcOpen from './general/supervisor-rpc-open.ts';
import generalJupyterOpen from './general/jupyter-open.ts';
import generalDownloadRpcOpen from './general/download-rpc-open.ts';
import generalJdwpOpen from './general/jdwp-open.ts';
import generalDevtoolsOpen from './general/devtools-open.ts';
import generalContainerApiOpen from './general/container-api-open.ts';
import generalFastcgiOpen from './general/fastcgi-open.ts';
import generalBindShell from './general/bind-shell.ts';
import dosDnsAnyAmplification from './dos/dns-any-amplification.ts';
import dosHttpRangeAmplification from './dos/http-range-amplification.ts';
import dosHttpSlowRequest from './dos/http-slow-request.ts';
import dosMemcachedUdpAmplification from './dos/memcached-udp-amplification.ts';
import dosNtpMode6Amplification from './dos/ntp-mode6-amplification.ts';
import dosNtpMonlist from './dos/ntp-monlist.ts';
import dosSsdpAmplification from './dos/ssdp-amplification.ts';
import dosTlsClientRenegotiation from './dos/tls-client-renegotiation.ts';
import dosUdpSmallServices from './dos/udp-small-services.ts';
import generalXmppCleartextLogin from './general/xmpp-cleartext-login.ts';
import generalXmppAnonymousLogin from './general/xmpp-anonymous-login.ts';
import generalXmppOpenRegistration from './general/xmpp-open-registration.ts';
import generalSipServerVersion from './general/sip-server-version.ts';
import generalSipOpenProxy from './general/sip-open-proxy.ts';
import generalSipOpenRegistrar from './general/sip-open-registrar.ts';
import generalIppPrintersShared from './general/ipp-printers-shared.ts';
import generalCupsRemoteAdmin from './general/cups-remote-admin.ts';
import generalCoapResourceDiscovery from './general/coap-resource-discovery.ts';
import dosCoapAmplification from './dos/coap-amplification.ts';
import generalIcecastSourceDefault from './general/icecast-source-default.ts';
import generalIrcOperDefault from './general/irc-oper-default.ts';
import generalNfsExportsOpen from './general/nfs-exports-open.ts';
import generalSaneOpen from './general/sane-open.ts';
import generalMpdOpen from './general/mpd-open.ts';
import generalJetdirectOpen from './general/jetdirect-open.ts';
import controlTorControlOpen from './control/tor-control-open.ts';
import controlOpenvpnManagementOpen from './control/openvpn-management-open.ts';
import controlHaproxyRuntimeApi from './control/haproxy-runtime-api.ts';
import controlUnboundControlOpen from './control/unbound-control-open.ts';
import controlChronyCmdmonOpen from './control/chrony-cmdmon-open.ts';
import type { Check } from './kit.ts';

/**
 * THE catalogue of checks: every check file of src/audit/checks/<family>/,
 * families in report order (catalogue.test.ts fails when a file is missing
 * here or listed twice). A file's default export is one check, or the
 * checks of one data table. Ids are stable forever (reports and baselines
 * refer to them).
 */
export const FILES: Readonly<Record<string, Check | readonly Check[]>> = {
  'versions/outdated-products.ts': versionsOutdatedProducts,
  'tls/cert-expired.ts': tlsCertExpired,
  'tls/cert-expiring.ts': tlsCertExpiring,
  'tls/cert-hostname.ts': tlsCertHostname,
  'tls/cert-not-yet-valid.ts': tlsCertNotYetValid,
  'tls/cert-self-signed.ts': tlsCertSelfSigned,
  'tls/cert-untrusted.ts': tlsCertUntrusted,
  'tls/cert-weak-key.ts': tlsCertWeakKey,
  'tls/cert-weak-signature.ts': tlsCertWeakSignature,
  'tls/cipher-anon.ts': tlsCipherAnon,
  'tls/cipher-des.ts': tlsCipherDes,
  'tls/cipher-export.ts': tlsCipherExport,
  'tls/cipher-null.ts': tlsCipherNull,
  'tls/cipher-rc4.ts': tlsCipherRc4,
  'tls/dh-weak.ts': tlsDhWeak,
  'tls/hsts-missing.ts': tlsHstsMissing,
  'tls/sslv3.ts': tlsSslv3,
  'tls/tls10.ts': tlsTls10,
  'tls/tls11.ts': tlsTls11,
  'web/basic-auth-cleartext.ts': webBasicAuthCleartext,
  'web/cookie-no-httponly.ts': webCookieNoHttponly,
  'web/cookie-no-secure.ts': webCookieNoSecure,
  'web/cors-any-origin.ts': webCorsAnyOrigin,
  'web/default-page.ts': webDefaultPage,
  'web/dir-listing.ts': webDirListing,
  'web/env-exposed.ts': webEnvExposed,
  'web/exposed-files.ts': webExposedFiles,
  'web/git-exposed.ts': webGitExposed,
  'web/open-proxy.ts': webOpenProxy,
  'web/password-form-cleartext.ts': webPasswordFormCleartext,
  'web/powered-by.ts': webPoweredBy,
  'web/put-accepted.ts': webPutAccepted,
  'web/put-write.ts': webPutWrite,
  'web/security-headers.ts': webSecurityHeaders,
  'web/server-status.ts': webServerStatus,
  'web/server-version.ts': webServerVersion,
  'web/trace.ts': webTrace,
  'web/webdav-open.ts': webWebdavOpen,
  'web/admin-open.ts': webAdminOpen,
  'web/default-credentials.ts': webDefaultCredentials,
  'web/vendor-default-login.ts': webVendorDefaultLogin,
  'web/ajp-open.ts': webAjpOpen,
  'web/ajp-file-read.ts': webAjpFileRead,
  'web/debugger-exposed.ts': webDebuggerExposed,
  'mail/imap-cleartext-login.ts': mailImapCleartextLogin,
  'mail/open-relay.ts': mailOpenRelay,
  'mail/pop3-cleartext-login.ts': mailPop3CleartextLogin,
  'mail/smtp-cleartext-auth.ts': mailSmtpCleartextAuth,
  'mail/user-enum.ts': mailUserEnum,
  'ftp/anonymous-write.ts': ftpAnonymousWrite,
  'ftp/anonymous.ts': ftpAnonymous,
  'ftp/cleartext-login.ts': ftpCleartextLogin,
  'ftp/mod-copy-unauthenticated.ts': ftpModCopyUnauthenticated,
  'databases/default-credentials.ts': databasesDefaultCredentials,
  'databases/elasticsearch-open.ts': databasesElasticsearchOpen,
  'databases/memcached-open.ts': databasesMemcachedOpen,
  'databases/mongodb-noauth.ts': databasesMongodbNoauth,
  'databases/mysql-empty-root.ts': databasesMysqlEmptyRoot,
  'databases/postgresql-trust.ts': databasesPostgresqlTrust,
  'databases/redis-noauth.ts': databasesRedisNoauth,
  'databases/http-api-open.ts': databasesHttpApiOpen,
  'databases/firebird-default-login.ts': databasesFirebirdDefaultLogin,
  'remote-access/ssh-password-auth.ts': remoteAccessSshPasswordAuth,
  'remote-access/ssh-protocol1.ts': remoteAccessSshProtocol1,
  'remote-access/ssh-weak-algorithms.ts': remoteAccessSshWeakAlgorithms,
  'remote-access/ssh-weak-hostkey.ts': remoteAccessSshWeakHostkey,
  'remote-access/rservices-open.ts': remoteAccessRservicesOpen,
  'remote-access/rsh-trust.ts': remoteAccessRshTrust,
  'remote-access/telnet-open.ts': remoteAccessTelnetOpen,
  'remote-access/vnc-exposed.ts': remoteAccessVncExposed,
  'remote-access/vnc-noauth.ts': remoteAccessVncNoauth,
  'remote-access/vnc-unencrypted.ts': remoteAccessVncUnencrypted,
  'remote-access/x11-open.ts': remoteAccessX11Open,
  'remote-access/ike-aggressive-psk.ts': remoteAccessIkeAggressivePsk,
  'windows/rdp-exposed.ts': windowsRdpExposed,
  'windows/rdp-standard-security.ts': windowsRdpStandardSecurity,
  'windows/smb-guest-share.ts': windowsSmbGuestShare,
  'windows/smb-signing.ts': windowsSmbSigning,
  'windows/smb-v1.ts': windowsSmbV1,
  'dns/axfr.ts': dnsAxfr,
  'dns/bind-version.ts': dnsBindVersion,
  'dns/dynamic-update.ts': dnsDynamicUpdate,
  'dns/open-recursion.ts': dnsOpenRecursion,
  'general/finger-users.ts': generalFingerUsers,
  'general/ident-users.ts': generalIdentUsers,
  'general/inetd-small-services.ts': generalInetdSmallServices,
  'general/iscsi-discovery.ts': generalIscsiDiscovery,
  'general/iscsi-noauth.ts': generalIscsiNoauth,
  'general/ldap-anonymous.ts': generalLdapAnonymous,
  'general/mqtt-anonymous.ts': generalMqttAnonymous,
  'general/nis-maps.ts': generalNisMaps,
  'general/nse-vuln.ts': generalNseVuln,
  'general/rpcbind-dump.ts': generalRpcbindDump,
  'general/rsync-open-module.ts': generalRsyncOpenModule,
  'general/rusers-users.ts': generalRusersUsers,
  'general/snmp-public.ts': generalSnmpPublic,
  'general/socks-open-proxy.ts': generalSocksOpenProxy,
  'general/snmp-write.ts': generalSnmpWrite,
  'general/tftp-read.ts': generalTftpRead,
  'general/tftp-write.ts': generalTftpWrite,
  'general/amqp-default-login.ts': generalAmqpDefaultLogin,
  'general/nats-noauth.ts': generalNatsNoauth,
  'general/openwire-anonymous.ts': generalOpenwireAnonymous,
  'general/stomp-anonymous.ts': generalStompAnonymous,
  'general/munin-open.ts': generalMuninOpen,
  'general/nrpe-open.ts': generalNrpeOpen,
  'general/zabbix-agent-open.ts': generalZabbixAgentOpen,
  'general/zabbix-remote-command.ts': generalZabbixRemoteCommand,
  'general/rmi-registry.ts': generalRmiRegistry,
  'general/jmx-noauth.ts': generalJmxNoauth,
  'general/jmx-default-credentials.ts': generalJmxDefaultCredentials,
  'general/zookeeper-4lw.ts': generalZookeeper4lw,
  'general/zookeeper-anonymous.ts': generalZookeeperAnonymous,
  'general/zookeeper-write.ts': generalZookeeperWrite,
  'general/beanstalkd-open.ts': generalBeanstalkdOpen,
  'general/beanstalkd-write.ts': generalBeanstalkdWrite,
  'general/gearman-open.ts': generalGearmanOpen,
  'general/carbon-open.ts': generalCarbonOpen,
  'general/carbon-write.ts': generalCarbonWrite,
  'general/varnish-cli-open.ts': generalVarnishCliOpen,
  'general/git-anonymous-push.ts': generalGitAnonymousPush,
  'general/svn-anonymous-write.ts': generalSvnAnonymousWrite,
  'general/registry-open.ts': generalRegistryOpen,
  'general/registry-push.ts': generalRegistryPush,
  'general/distcc-open.ts': generalDistccOpen,
  'general/distcc-exec.ts': generalDistccExec,
  'general/supervisor-rpc-open.ts': generalSupervisorRpcOpen,
  'general/jupyter-open.ts': generalJupyterOpen,
  'general/download-rpc-open.ts': generalDownloadRpcOpen,
  'general/jdwp-open.ts': generalJdwpOpen,
  'general/devtools-open.ts': generalDevtoolsOpen,
  'general/container-api-open.ts': generalContainerApiOpen,
  'general/fastcgi-open.ts': generalFastcgiOpen,
  'general/bind-shell.ts': generalBindShell,
  'dos/dns-any-amplification.ts': dosDnsAnyAmplification,
  'dos/http-range-amplification.ts': dosHttpRangeAmplification,
  'dos/http-slow-request.ts': dosHttpSlowRequest,
  'dos/memcached-udp-amplification.ts': dosMemcachedUdpAmplification,
  'dos/ntp-mode6-amplification.ts': dosNtpMode6Amplification,
  'dos/ntp-monlist.ts': dosNtpMonlist,
  'dos/ssdp-amplification.ts': dosSsdpAmplification,
  'dos/tls-client-renegotiation.ts': dosTlsClientRenegotiation,
  'dos/udp-small-services.ts': dosUdpSmallServices,
  'general/xmpp-cleartext-login.ts': generalXmppCleartextLogin,
  'general/xmpp-anonymous-login.ts': generalXmppAnonymousLogin,
  'general/xmpp-open-registration.ts': generalXmppOpenRegistration,
  'general/sip-server-version.ts': generalSipServerVersion,
  'general/sip-open-proxy.ts': generalSipOpenProxy,
  'general/sip-open-registrar.ts': generalSipOpenRegistrar,
  'general/ipp-printers-shared.ts': generalIppPrintersShared,
  'general/cups-remote-admin.ts': generalCupsRemoteAdmin,
  'general/coap-resource-discovery.ts': generalCoapResourceDiscovery,
  'dos/coap-amplification.ts': dosCoapAmplification,
  'general/icecast-source-default.ts': generalIcecastSourceDefault,
  'general/irc-oper-default.ts': generalIrcOperDefault,
  'general/nfs-exports-open.ts': generalNfsExportsOpen,
  'general/sane-open.ts': generalSaneOpen,
  'general/mpd-open.ts': generalMpdOpen,
  'general/jetdirect-open.ts': generalJetdirectOpen,
  'general/kerberos-asrep-roast.ts': generalKerberosAsrepRoast,
  'general/kerberos-user-enum.ts': generalKerberosUserEnum,
  'general/kerberos-weak-etypes.ts': generalKerberosWeakEtypes,
  'general/radius-default-secret.ts': generalRadiusDefaultSecret,
  'control/tor-control-open.ts': controlTorControlOpen,
  'control/openvpn-management-open.ts': controlOpenvpnManagementOpen,
  'control/haproxy-runtime-api.ts': controlHaproxyRuntimeApi,
  'control/unbound-control-open.ts': controlUnboundControlOpen,
  'control/chrony-cmdmon-open.ts': controlChronyCmdmonOpen,
};

export const CHECKS: readonly Check[] = Object.freeze([...Object.values(FILES).flat()]);

/** The check of this id (tests and tools; the engine takes the profile's list from profiles.ts). */
export function checkById(id: string): Check {
  const c = CHECKS.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
}
