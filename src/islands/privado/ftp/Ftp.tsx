/**
 * /comercializadora/ftp: the files a supply company exchanges with each distributor (docs/producto.md
 * §2 "FTP login screen"), the same ones its SFTP client sees. The screen asks for a second login
 * with the portal's e-mail and password (`POST /api/ftpConnect`); its token (`jwTokenFtp`) is kept
 * in the tab's sessionStorage and sent with every call of the exchange. When the exchange refuses
 * it (it lasts two hours), the login shows again; "Cerrar sesión FTP" forgets it.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  borrarToken,
  crearClienteFtp,
  MENSAJE_SESION_FTP_TERMINADA,
  tokenGuardado,
  type AlmacenToken,
} from '../../../lib/intercambio/pantalla.ts';
import { $session } from '../../../lib/sesion/index.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Explorador } from './Explorador.tsx';
import { LoginFtp } from './LoginFtp.tsx';
import '../../sesion/sesion.css';
import '../medidas/medidas.css';
import './ftp.css';

/** sessionStorage, or a memory of the page's life where the browser refuses it (some private modes). */
function almacenDelNavegador(): AlmacenToken {
  try {
    const s = window.sessionStorage;
    const prueba = '__ftp__';
    s.setItem(prueba, '1');
    s.removeItem(prueba);
    return s;
  } catch {
    const memoria = new Map<string, string>();
    return {
      getItem: (k) => memoria.get(k) ?? null,
      setItem: (k, v) => void memoria.set(k, v),
      removeItem: (k) => void memoria.delete(k),
    };
  }
}

let almacen: AlmacenToken | null = null;
const elAlmacen = () => (almacen ??= almacenDelNavegador());

// Leaving the portal ends the FTP session of the tab too.
$session.listen((s) => {
  if (!s && almacen) borrarToken(almacen);
});

/** The FTP screen. */
export default function Ftp({ ruta }: PropsPantalla) {
  const sesion = useStore($session);
  const usuario = sesion?.username ?? null;
  const cliente = useMemo(
    () =>
      crearClienteFtp({
        fetch: (entrada, init) => globalThis.fetch(entrada, init),
        almacen: elAlmacen(),
        sesionPortal: () => $session.get()?.jwtToken ?? null,
      }),
    [],
  );
  const [conectado, setConectado] = useState(() => tokenGuardado(elAlmacen(), usuario) !== null);
  const [aviso, setAviso] = useState<string | null>(null);
  const raiz = useRef<HTMLDivElement>(null);
  /** After logging in or out, focus goes to the heading of what replaced the form. */
  const enfocar = useRef(false);

  // Another portal user in this tab (an impersonation started or ended) does not inherit the FTP session.
  useEffect(() => {
    if (tokenGuardado(elAlmacen(), usuario) === null) setConectado(false);
  }, [usuario]);

  useEffect(() => {
    if (!enfocar.current) return;
    enfocar.current = false;
    raiz.current?.querySelector<HTMLElement>(conectado ? '#ftp-carpeta-titulo' : '.ftp-login h2')?.focus();
  }, [conectado]);

  const salir = (motivo: string | null) => {
    cliente.desconectar();
    setAviso(motivo);
    enfocar.current = true;
    setConectado(false);
  };

  return (
    <div ref={raiz} className="priv-pagina ftp">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="ftp-intro">
        Intercambie ficheros con cada distribuidora: deje en <strong>entrada</strong> lo que les envía y recoja en <strong>salida</strong>{' '}
        lo que le envían. Son los mismos ficheros que ve con su cliente SFTP.
      </p>
      {conectado ? (
        <Explorador
          cliente={cliente}
          alCaducar={() => salir(MENSAJE_SESION_FTP_TERMINADA)}
          alCerrarSesion={() => salir('Ha cerrado la sesión del FTP.')}
        />
      ) : (
        <LoginFtp
          cliente={cliente}
          usuario={usuario}
          aviso={aviso}
          alEntrar={() => {
            setAviso(null);
            enfocar.current = true;
            setConectado(true);
          }}
        />
      )}
    </div>
  );
}
