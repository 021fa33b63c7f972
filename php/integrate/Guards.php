<?php
/**
 * Guard forms: how a switched method hands its call to the native
 * function. The tool inserts one line as the first statement of the
 * method's body; a form is the template of that line (without its marker):
 *   {when}  the guard's conditions joined with " && ": the extension being
 *           loaded, then the class's 'when', then the method's own
 *           (SwitchTable::CLASSES);
 *   {call}  the native call, \NATIVE\NAME($this, <the method's parameters>).
 * A new form is one more template here; a condition for every guard of a
 * class goes into that class's 'when' in SwitchTable.
 */

declare(strict_types=1);

namespace YioopCodec\Integrate;

final class Guards
{
    public const FORMS = [
        // The native function returns null, before changing anything
        // Yioop's PHP would see, for input it leaves to Yioop's PHP (the
        // method then carries on), and its result otherwise.
        'declines' => 'if ({when} && ($yioop_codec_result = {call}) !== null)'
            . ' { return $yioop_codec_result; }',
        // The same for a method that returns nothing: the native function
        // returns true when it has done the method's work.
        'declines_void' => 'if ({when} && {call}) { return; }',
        // For a method that returns a value or nothing as its arguments
        // ask (WebArchive::addObjects and its $return_flag): null declines,
        // false says the work is done and the method returns nothing, any
        // other result is returned.
        'declines_or_void' => 'if ({when} && ($yioop_codec_result = {call})'
            . ' !== null) { return $yioop_codec_result === false ? null'
            . ' : $yioop_codec_result; }',
        // 'declines' for a static method: the native function gets the
        // class it was called on (static::class) instead of $this.
        'declines_static' => 'if ({when} && ($yioop_codec_result = {call})'
            . ' !== null) { return $yioop_codec_result; }',
        // 'declines_void' for a static method.
        'declines_void_static' => 'if ({when} && {call}) { return; }',
    ];

    /** The guard statement of $method, whose parameters are $args. */
    public static function statement(SwitchedMethod $method, array $args):
        string
    {
        $when = array_merge(['\\extension_loaded("' . Patch::MODULE . '")'],
            $method->when);
        $receiver = str_ends_with($method->form, '_static')
            ? 'static::class' : '$this';
        $call = '\\' . $method->native . '(' . implode(', ',
            array_merge([$receiver], $args)) . ')';
        return strtr(self::FORMS[$method->form], ['{when}' => implode(' && ',
            $when), '{call}' => $call]);
    }

    /**
     * When the guard hands the call over, besides the extension being
     * loaded: for --check; '' for none.
     */
    public static function describe(SwitchedMethod $method): string
    {
        return implode(' && ', $method->when);
    }
}
