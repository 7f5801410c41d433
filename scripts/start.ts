/** `npm start`: build what is missing, then run the server (which migrates and loads demo data). */
import { buildIfNeeded } from './build-if-needed.ts';

buildIfNeeded();
const { main } = await import('../src/server/main.ts');
await main();
