// The dashboard works without this script; it only adds a copy button beside a secret, a confirmation before
// actions that cannot be undone, a transfer's currency shown as its sending account's the moment it is chosen, and a
// key form's Access following the permissions ticked.
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
// The server takes the currency from the sending account; this only shows it before the form is sent.
for (const picker of document.querySelectorAll('select[data-currency-to]')) {
  const target = document.getElementById(picker.dataset.currencyTo);
  if (!target) continue;
  picker.addEventListener('change', () => {
    target.textContent = picker.selectedOptions[0]?.dataset.currency ?? '—';
  });
}
// A level above none makes the key restricted (the server decides so too); this only shows it in the Access choice.
const restrictedChoice = document.querySelector('input[name=access][value=restricted]');
for (const level of document.querySelectorAll('input[type=radio][name^="permissions."]')) {
  level.addEventListener('change', () => {
    if (restrictedChoice && level.checked && level.value !== 'none') restrictedChoice.checked = true;
  });
}
