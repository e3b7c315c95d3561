// Roving focus in a group of buttons: Tab reaches the group once, arrow keys (and Home,
// End) move inside it, Enter or Space presses the focused button. rove(buttons, event)
// handles a keydown in the group: it moves the focus and the group's one tab stop, and
// says whether it did. (The runtime's controls and the game's word groups use it.)
export function rove(buttons, event) {
  var at = buttons.indexOf(document.activeElement);
  if (at < 0) return false;
  var next = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
               Home: 0, End: buttons.length - 1 }[event.key];
  if (next === undefined) return false;
  event.preventDefault();
  next = (next + buttons.length) % buttons.length;
  buttons.forEach(function (b, i) { b.tabIndex = i === next ? 0 : -1; });
  buttons[next].focus();
  return true;
}
