/** The part of seek-bzip (pure JavaScript bzip2 decoder) the measures reader uses. */
declare module 'seek-bzip' {
  const Bunzip: {
    /** Decodes a whole bzip2 stream (every concatenated stream when `multistream`). */
    decode(input: Uint8Array, output?: undefined, multistream?: boolean): Buffer;
  };
  export default Bunzip;
}
