import { params, type LoginScript } from './call.ts';

/** auth.php: API key + userid + password -> session token. */
export const authScripts: Record<string, LoginScript> = {
  'auth.php': {
    session: false,
    systemError: 'sysErrdoLogin',
    params: params(['userid', 'password']),
    async run({ form, clientAddress, services }) {
      const sessionToken = await services.sessions.login({
        apikey: form.get('apikey'),
        userid: form.get('userid'),
        password: form.get('password'),
        clientAddress,
      });
      return { sessionToken };
    },
  },
};
