// The dashboard works without this script; it only adds a copy button beside a secret and a confirmation before
// actions that cannot be undone.
for (const button of document.querySelectorAll('button[data-copy]')) {
  const target = document.getElementById(button.dataset.copy);
  if (!target || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    await navigator.clipboard.writeText(target.textContent);
    button.textContent = 'Copied';
  });
}
for (const button of document.querySelectorAll('button[data-confirm]')) {
  button.form?.addEventListener('submit', (event) => {
    if (event.submitter === button && !window.confirm(button.dataset.confirm)) event.preventDefault();
  });
}
