/**
 * Preloaded with `node --import` by the benchmarks into a child process: at exit it writes the
 * process's peak resident set (KB, `process.resourceUsage().maxRSS`) to the file MEDIR_MEMORIA names.
 */
import { writeFileSync } from 'node:fs';

const destino = process.env.MEDIR_MEMORIA;
if (destino) process.on('exit', () => writeFileSync(destino, String(process.resourceUsage().maxRSS)));
