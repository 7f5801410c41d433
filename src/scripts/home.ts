/**
 * The home page's two behaviours, without a framework: the hero video (muted autoplay, never under
 * prefers-reduced-motion, with a pause button) and the outage notice toggle (aria-expanded).
 */

/** Starts the hero video unless the user prefers reduced motion, and wires its pause button. */
export function setupHero(root: ParentNode = document): void {
  const video = root.querySelector<HTMLVideoElement>('[data-hero-video]');
  const button = root.querySelector<HTMLButtonElement>('[data-hero-toggle]');
  if (!video || !button) return;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)');
  const render = () => {
    const playing = !video.paused;
    button.setAttribute('aria-pressed', String(!playing));
    button.querySelector('[data-label]')!.textContent = playing ? 'Pausar vídeo' : 'Reproducir vídeo';
    button.dataset.state = playing ? 'playing' : 'paused';
  };
  video.addEventListener('play', render);
  video.addEventListener('pause', render);
  button.hidden = false;
  button.addEventListener('click', () => {
    if (video.paused) void video.play().catch(render);
    else video.pause();
  });
  if (!reduce.matches) void video.play().catch(render);
  render();
}

/** Makes the notice's button expand and collapse its text. */
export function setupAviso(root: ParentNode = document): void {
  const button = root.querySelector<HTMLButtonElement>('[data-aviso-toggle]');
  if (!button) return;
  const panel = document.getElementById(button.getAttribute('aria-controls') ?? '');
  if (!panel) return;
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    panel.hidden = !open;
    button.querySelector('[data-label]')!.textContent = open ? 'Ocultar el aviso completo' : 'Leer el aviso completo';
  });
}
