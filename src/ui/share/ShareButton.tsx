// The Share button: packs the page's scenario (./open.ts, loaded when pressed) into a link, copies it, or
// offers it as a file when it is too long for chat apps. Loading links is ./use-scenario.ts.
import { useState } from 'react';
import { CHAT_LINK_CHARS, encodeScenario, shareUrl, ShareLinkError } from './share.js';
import { usePlaygroundStore } from '../playground.js';

function download(name: string, text: string) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function ShareButton() {
  const store = usePlaygroundStore();
  const [message, setMessage] = useState('');
  const [tooLong, setTooLong] = useState<string | undefined>();
  const share = async () => {
    let fragment: string;
    let omitted = 0;
    setTooLong(undefined);
    try {
      const { currentScenario } = await import('./open.js');
      const current = await currentScenario(store);
      omitted = current.omitted;
      fragment = await encodeScenario(current.scenario);
    } catch (err) {
      setMessage(err instanceof ShareLinkError ? `No share link: ${err.message}.` : 'No share link: the text could not be packed.');
      return;
    }
    const url = shareUrl(location.href, fragment);
    history.replaceState(null, '', url);
    const left = omitted ? ` ${omitted} cluster object${omitted === 1 ? ' was' : 's were'} left out (size budget).` : '';
    if (url.length > CHAT_LINK_CHARS) {
      setTooLong(url);
      setMessage(`The link is ${url.length} characters, too long for many chat apps (more than ${CHAT_LINK_CHARS}): download it as a file instead and send that; Clusters > Import opens it.${left}`);
      return;
    }
    try {
      await navigator.clipboard.writeText(url);
      setMessage(`Share link copied to the clipboard.${left}`);
      setTimeout(() => setMessage(''), 4000);
    } catch {
      setMessage('Share link is in the address bar.');
    }
  };
  return (
    <span className="share">
      <button type="button" onClick={() => void share()}>
        Share
      </button>
      {tooLong && (
        <button type="button" onClick={() => download('kube-playground-scenario.link.txt', `${tooLong}\n`)}>
          Download link as a file
        </button>
      )}
      <span role="status" className="toast" data-testid="share-status">
        {message}
      </span>
    </span>
  );
}
