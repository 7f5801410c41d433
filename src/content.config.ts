/**
 * Content collections of the public pages: legal texts, subsidised projects and dated notices.
 * Every entry is an MDX file read by the glob loader; its id is the file name without extension.
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

/** Legal texts shown at /legal/<id>: aviso-legal, proteccion-datos, politica-calidad. */
const legal = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './src/content/legal' }),
  schema: z.object({
    /** Title of the page, shown as its h1 and in the document title. */
    titulo: z.string().min(1),
    /** One sentence for the meta description. */
    descripcion: z.string().min(1),
    /** Date of the text's last revision, shown as "Última actualización". */
    actualizado: z.coerce.date(),
  }),
});

/** Projects of the distributors co-funded by public programmes, listed at /proyectos-subvencionados. */
const proyectos = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './src/content/proyectos' }),
  schema: z
    .object({
      /** Name of the project. */
      titulo: z.string().min(1),
      /** Code of the distributor that carries it out (see src/lib/distribuidoras.ts). */
      distribuidora: z.enum(['epd', 'eod', 'ecd']),
      /** Programme or call that grants the aid. */
      programa: z.string().min(1),
      /** European fund that finances the aid (MRR – NextGenerationEU, FEDER…). */
      fondo: z.string().min(1),
      /** EU funding mention the programme's publicity rules require, shown as text. */
      mencionUE: z.string().min(1),
      /** Total eligible budget of the project, in euros. */
      importeTotal: z.number().positive(),
      /** Aid granted, in euros. */
      ayuda: z.number().positive(),
      /** Start date of the project. */
      fechaInicio: z.coerce.date(),
      /** End date of the project (planned or actual). */
      fechaFin: z.coerce.date(),
      /** File number of the aid at the granting body. */
      expediente: z.string().min(1),
      /** One- or two-sentence summary of the project. */
      resumen: z.string().min(1),
      /** Position in the list, lowest first. */
      orden: z.number().int().default(100),
    })
    .refine((p) => p.ayuda <= p.importeTotal, { message: 'La ayuda no puede superar el importe total.' })
    .refine((p) => p.fechaInicio <= p.fechaFin, { message: 'La fecha de fin es anterior a la de inicio.' }),
});

/** Dated notices shown on the home page (e.g. the outage of 28 April 2025). */
const avisos = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './src/content/avisos' }),
  schema: z.object({
    /** Headline of the notice. */
    titulo: z.string().min(1),
    /** Date of the event the notice is about. */
    fecha: z.coerce.date(),
    /** Date the notice was published. */
    publicado: z.coerce.date(),
    /** One short sentence shown while the notice is collapsed. */
    resumen: z.string().min(1),
  }),
});

export const collections = { legal, proyectos, avisos };
