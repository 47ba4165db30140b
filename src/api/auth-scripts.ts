import type { LoginScript } from './call.ts';
import { CONTRACTS } from './contract/index.ts';

/** auth.php: API key + userid + password -> session token. */
export const authScripts: Record<string, LoginScript> = {
  'auth.php': {
    ...CONTRACTS['auth.php'],
    session: false,
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
