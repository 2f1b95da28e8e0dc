// Preloaded (NODE_OPTIONS=--import) into the validate CLI's processes by the xml campaign: at exit,
// each appends "pid maxRSS-in-KB argv" to $XML_CAMPAIGN_PEAK_FILE, so the campaign learns the peak
// RSS of the process that ran src/cli.ts (npm and tsx's launcher write lines of their own).
import { appendFileSync } from 'node:fs';
import process from 'node:process';

const file = process.env.XML_CAMPAIGN_PEAK_FILE;
if (file) process.on('exit', () => appendFileSync(file, `${process.pid} ${process.resourceUsage().maxRSS} ${process.argv.join(' ')}\n`));
