/** Response bodies streamed from the database's pieces of a file. */

/** A web stream of the pieces an async generator yields, read as the client reads; cancelling stops the generator. */
export function flujoDeTrozos(trozos: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const r = await trozos.next();
      if (r.done) controller.close();
      else controller.enqueue(r.value);
    },
    async cancel() {
      await trozos.return(undefined);
    },
  });
}
