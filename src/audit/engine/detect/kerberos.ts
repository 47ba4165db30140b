/**
 * A Kerberos KDC on TCP (RFC 4120 §7.2.2; port 88, nmap's "kerberos-sec"):
 * silent until a request comes. One AS-REQ for a random name in a realm no
 * one serves, answered by any KDC with a KRB-ERROR (MIT and Heimdal:
 * KDC_ERR_C_PRINCIPAL_UNKNOWN), names it. MIT's e-text is its status string
 * ("CLIENT_NOT_FOUND", do_as_req.c), which names the product.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { asReq, framed, NT_PRINCIPAL, parseKdcReply, tcpFrame, unframe } from '../../proto/krb5.ts';
import type { Family } from './family.ts';

/**
 * 88, and 750 where MIT's KDC also listens by default (kdc.conf kdc_ports); tried on these only, as detect/ops.ts
 * does its protocols: a KDC answers nothing else, and another probe on every unnamed port costs each silent one.
 */
const PORTS = [88, 750];

export const kerberos: Family = {
  id: 'kerberos',
  ports: PORTS,
  only: true,
  async probe(conv, s) {
    const msg = asReq({
      realm: 'VIGIL.INVALID',
      name: [`vigil-${randomBytes(4).toString('hex')}`],
      nameType: NT_PRINCIPAL,
      nonce: randomInt(2 ** 31),
    });
    const body = unframe(await conv.ask(tcpFrame(msg), 2000, framed));
    const reply = body && parseKdcReply(body);
    if (reply?.kind !== 'error') return false;
    s.name = 'kerberos-sec';
    if (reply.text === 'CLIENT_NOT_FOUND') s.product = 'MIT Kerberos KDC';
    return true;
  },
};
