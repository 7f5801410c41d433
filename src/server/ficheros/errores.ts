/**
 * A fault of a file as a whole (damaged compression, mixed encodings, a quote never closed), with
 * the Spanish sentence the person who sent it reads. Readers turn it into a rejection of the file.
 */
export class ErrorFichero extends Error {
  /** What is wrong and what to do, in Spanish. */
  readonly motivo: string;
  /** Physical line it refers to, from 1; 0 for the file as a whole. */
  readonly linea: number;

  constructor(motivo: string, linea = 0) {
    super(motivo);
    this.name = 'ErrorFichero';
    this.motivo = motivo;
    this.linea = linea;
  }
}
