// `node --import ./register.mjs …`: installs hooks.mjs, logging to the file named by RECORD_IMPORTS_TO.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url, { data: { logPath: process.env.RECORD_IMPORTS_TO } });
