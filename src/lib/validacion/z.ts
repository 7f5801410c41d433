/** zod with the Spanish messages installed: the shared schemas import `z` from here, so no form or route can use them without. */
import './mensajes-zod.ts';

export { z } from 'zod';
