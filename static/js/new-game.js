// The new-game form: the keyboard's Enter goes on to the next name instead of submitting with
// the first button of the form (which chose player 1 as the dealer).
import { enterGoesOn } from "./next-field.js";

enterGoesOn(/^name_\d+$/, "blur");
