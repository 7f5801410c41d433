/**
 * Content collections of the public pages: legal texts, subsidised projects and dated notices.
 * Every entry is an MDX file read by the glob loader; its id is the file name without extension.
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

// Editors read these messages when a front matter is wrong (docs/contenidos.md): Astro names the
// file and the field, each field says in Spanish what it expects.

/** A required text field, described for the message. */
const texto = (que: string) => z.string({ error: `falta ${que} (un texto)` }).min(1, `falta ${que}`);

/** A date field, AAAA-MM-DD. */
const fecha = (que: string) => z.coerce.date({ error: `se espera la fecha ${que}, con la forma AAAA-MM-DD` });

/** An amount in euros, a positive number without thousands points. */
const euros = (que: string) =>
  z.number({ error: `se espera ${que} en euros, un número sin puntos de miles (2640000)` }).positive(`${que} debe ser mayor que cero`);

/** Legal texts shown at /legal/<id>: aviso-legal, proteccion-datos, politica-calidad. */
const legal = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './src/content/legal' }),
  schema: z.object({
    /** Title of the page, shown as its h1 and in the document title. */
    titulo: texto('el título de la página'),
    /** One sentence for the meta description. */
    descripcion: texto('una frase que describe la página a los buscadores'),
    /** Date of the text's last revision, shown as "Última actualización". */
    actualizado: fecha('de la última revisión del texto'),
  }),
});

/** Projects of the distributors co-funded by public programmes, listed at /proyectos-subvencionados. */
const proyectos = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './src/content/proyectos' }),
  schema: z
    .object({
      /** Name of the project. */
      titulo: texto('el nombre del proyecto'),
      /** Code of the distributor that carries it out (see src/lib/distribuidoras.ts). */
      distribuidora: z.enum(['epd', 'eod', 'ecd'], { error: 'se espera epd, eod o ecd (la distribuidora que hace el proyecto)' }),
      /** Programme or call that grants the aid. */
      programa: texto('el programa o la convocatoria de la ayuda'),
      /** European fund that finances the aid (MRR – NextGenerationEU, FEDER…). */
      fondo: texto('el fondo europeo que la financia'),
      /** EU funding mention the programme's publicity rules require, shown as text. */
      mencionUE: texto('la mención de la financiación europea'),
      /** Total eligible budget of the project, in euros. */
      importeTotal: euros('el importe total'),
      /** Aid granted, in euros. */
      ayuda: euros('la ayuda concedida'),
      /** Start date of the project. */
      fechaInicio: fecha('de inicio del proyecto'),
      /** End date of the project (planned or actual). */
      fechaFin: fecha('de fin del proyecto'),
      /** File number of the aid at the granting body. */
      expediente: texto('el número de expediente de la ayuda'),
      /** One- or two-sentence summary of the project. */
      resumen: texto('un resumen de una o dos frases'),
      /** Position in the list, lowest first. */
      orden: z
        .number({ error: 'se espera un número entero: la posición en la lista' })
        .int('se espera un número entero: la posición en la lista')
        .default(100),
    })
    .refine((p) => p.ayuda <= p.importeTotal, { message: 'La ayuda no puede superar el importe total.' })
    .refine((p) => p.fechaInicio <= p.fechaFin, { message: 'La fecha de fin es anterior a la de inicio.' }),
});

/** Dated notices shown on the home page (e.g. the outage of 28 April 2025). */
const avisos = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './src/content/avisos' }),
  schema: z.object({
    /** Headline of the notice. */
    titulo: texto('el titular del aviso'),
    /** Date of the event the notice is about. */
    fecha: fecha('del hecho del que habla el aviso'),
    /** Date the notice was published. */
    publicado: fecha('de publicación del aviso'),
    /** One short sentence shown while the notice is collapsed. */
    resumen: texto('una frase que se lee con el aviso plegado en la portada'),
  }),
});

/** A link of the home page's blocks: a path of the site and its words. */
const enlace = z.object({
  href: z
    .string({ error: 'falta la dirección del enlace' })
    .startsWith('/', 'la dirección del enlace debe ser una ruta del portal, que empieza por /'),
  texto: texto('el texto del enlace'),
});

/** The home page's texts (one entry, `inicio`): the hero's title and lead, and the three blocks (docs/producto.md §1). */
const portada = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './src/content/portada' }),
  schema: z.object({
    /** The hero's heading. */
    titulo: texto('el título de la portada'),
    /** The hero's lead paragraph. */
    entradilla: texto('el párrafo bajo el título'),
    /** The information blocks, in order. */
    bloques: z
      .array(
        z.object({
          /** Short name, used for the block's style (acceso, consumidor, comercializadora). */
          id: z.enum(['acceso', 'consumidor', 'comercializadora'], { error: 'se espera acceso, consumidor o comercializadora' }),
          titulo: texto('el título del bloque'),
          texto: texto('el texto del bloque'),
          /** The block's main button. */
          enlace,
          /** Further links under the button. */
          extra: z.array(enlace).default([]),
        }),
        { error: 'se espera la lista de bloques de la portada' },
      )
      .length(3, 'la portada tiene tres bloques: acceso, consumidor y comercializadora'),
  }),
});

export const collections = { legal, proyectos, avisos, portada };
