import { describe, expect, it } from 'vitest';
import { fragmentosResaltados } from '../../src/lib/resaltado.ts';

describe('search excerpts', () => {
  it('splits marked words from the rest', () => {
    expect(fragmentosResaltados('la <mark>potencia</mark> contratada')).toEqual([
      { texto: 'la ', marcado: false },
      { texto: 'potencia', marcado: true },
      { texto: ' contratada', marcado: false },
    ]);
  });

  it('never lets other markup through, and decodes entities to text', () => {
    const parts = fragmentosResaltados('<img src=x onerror=alert(1)>a &lt;b&gt; <mark><script>x</script>c</mark>');
    expect(parts.map((p) => p.texto).join('')).toBe('a <b> xc');
    expect(JSON.stringify(parts)).not.toContain('<img');
  });
});
