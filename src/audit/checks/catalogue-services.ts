import remoteAccessSshPasswordAuth from './remote-access/ssh-password-auth.ts';
import remoteAccessSshProtocol1 from './remote-access/ssh-protocol1.ts';
import remoteAccessSshWeakAlgorithms from './remote-access/ssh-weak-algorithms.ts';
import remoteAccessSshWeakHostkey from './remote-access/ssh-weak-hostkey.ts';
import remoteAccessRservicesOpen from './remote-access/rservices-open.ts';
import remoteAccessRshTrust from './remote-access/rsh-trust.ts';
import remoteAccessTelnetOpen from './remote-access/telnet-open.ts';
import remoteAccessTelnetNoLogin from './remote-access/telnet-no-login.ts';
import remoteAccessVncExposed from './remote-access/vnc-exposed.ts';
import remoteAccessVncNoauth from './remote-access/vnc-noauth.ts';
import remoteAccessVncUnencrypted from './remote-access/vnc-unencrypted.ts';
import remoteAccessX11Open from './remote-access/x11-open.ts';
import remoteAccessWebTerminalOpen from './remote-access/web-terminal-open.ts';
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
import generalIdentUsers from './general/ident-users.ts';
import generalInetdSmallServices from './general/inetd-small-services.ts';
import generalIscsiDiscovery from './general/iscsi-discovery.ts';
import generalIscsiNoauth from './general/iscsi-noauth.ts';
import generalNbdExportList from './general/nbd-export-list.ts';
import generalNbdNoauth from './general/nbd-noauth.ts';
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
import generalUwsgiOpen from './general/uwsgi-open.ts';
import generalUwsgiStatsOpen from './general/uwsgi-stats-open.ts';
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
import generalKerberosAsrepRoast from './general/kerberos-asrep-roast.ts';
import generalKerberosUserEnum from './general/kerberos-user-enum.ts';
import generalKerberosWeakEtypes from './general/kerberos-weak-etypes.ts';
import generalRadiusDefaultSecret from './general/radius-default-secret.ts';
import generalPrometheusApiOpen from './general/prometheus-api-open.ts';
import generalPrometheusAdminApi from './general/prometheus-admin-api.ts';
import generalPrometheusLifecycle from './general/prometheus-lifecycle.ts';
import generalPushgatewayOpen from './general/pushgateway-open.ts';
import generalPushgatewayWrite from './general/pushgateway-write.ts';
import generalAlertmanagerOpen from './general/alertmanager-open.ts';
import generalAlertmanagerSilence from './general/alertmanager-silence.ts';
import generalMemberlistGossipOpen from './general/memberlist-gossip-open.ts';
import controlTorControlOpen from './control/tor-control-open.ts';
import controlOpenvpnManagementOpen from './control/openvpn-management-open.ts';
import controlHaproxyRuntimeApi from './control/haproxy-runtime-api.ts';
import controlUnboundControlOpen from './control/unbound-control-open.ts';
import controlChronyCmdmonOpen from './control/chrony-cmdmon-open.ts';
import type { Check } from './kit.ts';

/** Half of the catalogue (catalogue.ts): remote access, Windows, DNS, the general services, denial of service and control ports, in report order. */
export const SERVICES: Readonly<Record<string, Check | readonly Check[]>> = {
  'remote-access/ssh-password-auth.ts': remoteAccessSshPasswordAuth,
  'remote-access/ssh-protocol1.ts': remoteAccessSshProtocol1,
  'remote-access/ssh-weak-algorithms.ts': remoteAccessSshWeakAlgorithms,
  'remote-access/ssh-weak-hostkey.ts': remoteAccessSshWeakHostkey,
  'remote-access/rservices-open.ts': remoteAccessRservicesOpen,
  'remote-access/rsh-trust.ts': remoteAccessRshTrust,
  'remote-access/telnet-open.ts': remoteAccessTelnetOpen,
  'remote-access/telnet-no-login.ts': remoteAccessTelnetNoLogin,
  'remote-access/vnc-exposed.ts': remoteAccessVncExposed,
  'remote-access/vnc-noauth.ts': remoteAccessVncNoauth,
  'remote-access/vnc-unencrypted.ts': remoteAccessVncUnencrypted,
  'remote-access/x11-open.ts': remoteAccessX11Open,
  'remote-access/ike-aggressive-psk.ts': remoteAccessIkeAggressivePsk,
  'remote-access/web-terminal-open.ts': remoteAccessWebTerminalOpen,
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
  'general/nbd-export-list.ts': generalNbdExportList,
  'general/nbd-noauth.ts': generalNbdNoauth,
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
  'general/uwsgi-open.ts': generalUwsgiOpen,
  'general/uwsgi-stats-open.ts': generalUwsgiStatsOpen,
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
  'general/prometheus-api-open.ts': generalPrometheusApiOpen,
  'general/prometheus-admin-api.ts': generalPrometheusAdminApi,
  'general/prometheus-lifecycle.ts': generalPrometheusLifecycle,
  'general/pushgateway-open.ts': generalPushgatewayOpen,
  'general/pushgateway-write.ts': generalPushgatewayWrite,
  'general/alertmanager-open.ts': generalAlertmanagerOpen,
  'general/alertmanager-silence.ts': generalAlertmanagerSilence,
  'general/memberlist-gossip-open.ts': generalMemberlistGossipOpen,
  'control/tor-control-open.ts': controlTorControlOpen,
  'control/openvpn-management-open.ts': controlOpenvpnManagementOpen,
  'control/haproxy-runtime-api.ts': controlHaproxyRuntimeApi,
  'control/unbound-control-open.ts': controlUnboundControlOpen,
  'control/chrony-cmdmon-open.ts': controlChronyCmdmonOpen,
};
