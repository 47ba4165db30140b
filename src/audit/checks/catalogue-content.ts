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
import webDirListingDirs from './web/dir-listing-dirs.ts';
import webServerAdminApi from './web/server-admin-api.ts';
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
import webGrafanaDefaultLogin from './web/grafana-default-login.ts';
import mailImapCleartextLogin from './mail/imap-cleartext-login.ts';
import mailOpenRelay from './mail/open-relay.ts';
import mailPop3CleartextLogin from './mail/pop3-cleartext-login.ts';
import mailSmtpCleartextAuth from './mail/smtp-cleartext-auth.ts';
import mailUserEnum from './mail/user-enum.ts';
import mailRcptEnum from './mail/rcpt-enum.ts';
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
import type { Check } from './kit.ts';

/** Half of the catalogue (catalogue.ts): versions, TLS, web, mail, FTP and databases: the checks of what a service serves and how it logs in, in report order. */
export const CONTENT: Readonly<Record<string, Check | readonly Check[]>> = {
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
  'web/dir-listing-dirs.ts': webDirListingDirs,
  'web/env-exposed.ts': webEnvExposed,
  'web/exposed-files.ts': webExposedFiles,
  'web/git-exposed.ts': webGitExposed,
  'web/open-proxy.ts': webOpenProxy,
  'web/password-form-cleartext.ts': webPasswordFormCleartext,
  'web/powered-by.ts': webPoweredBy,
  'web/put-accepted.ts': webPutAccepted,
  'web/put-write.ts': webPutWrite,
  'web/security-headers.ts': webSecurityHeaders,
  'web/server-admin-api.ts': webServerAdminApi,
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
  'web/grafana-default-login.ts': webGrafanaDefaultLogin,
  'mail/imap-cleartext-login.ts': mailImapCleartextLogin,
  'mail/open-relay.ts': mailOpenRelay,
  'mail/pop3-cleartext-login.ts': mailPop3CleartextLogin,
  'mail/smtp-cleartext-auth.ts': mailSmtpCleartextAuth,
  'mail/user-enum.ts': mailUserEnum,
  'mail/rcpt-enum.ts': mailRcptEnum,
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
};
