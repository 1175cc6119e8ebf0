// The buttons beside a share panel's links (a game's read-only link, a table's two links, a
// saved set of house rules): the phone's share sheet where it has one (navigator.share), else
// a copy of the link (the clipboard, on HTTPS). Loaded by live.js when a share panel is first opened: not part of the
// first load. Without either, the button stays hidden and the link is there to press.

export function offer(panel) {
  for (const button of panel.querySelectorAll("button[data-share]")) offerOne(button);
}

function offerOne(button) {
  if (!button.hidden) return;
  const url = button.dataset.share;
  const sheet = typeof navigator.share === "function";
  if (!sheet && !navigator.clipboard) return;
  button.textContent = sheet ? button.dataset.shareLabel : button.dataset.copyLabel;
  button.hidden = false;
  button.addEventListener("click", async () => {
    if (sheet) {
      await navigator.share({ title: document.title, url }).catch(() => {}); // closed: nothing
      return;
    }
    await navigator.clipboard.writeText(url);
    button.textContent = button.dataset.copiedLabel;
    setTimeout(() => (button.textContent = button.dataset.copyLabel), 3000);
  });
}
