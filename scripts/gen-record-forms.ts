// Writes the files made from the record table (src/dns/rr/generated.ts): the console's forms, the add contracts.
import { writeFileSync } from 'node:fs';
import { GENERATED } from '../src/dns/rr/generated.ts';

for (const g of GENERATED) {
  writeFileSync(g.file, g.source());
  console.log(`wrote ${g.file}`);
}
