//! The pest parser generated from `spec/pcode.pest` (the grammar is documented there).

use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "../spec/pcode.pest"]
pub struct PcodeParser;

/// A readable name for a grammar rule, used in "expected ..." messages.
pub fn describe(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "end of entry",
        Rule::program | Rule::block => "statement",
        Rule::declare_stmt | Rule::kw_declare => "`declare`",
        Rule::if_stmt | Rule::kw_if => "`if`",
        Rule::elsif_arm | Rule::kw_elsif | Rule::kw_elif | Rule::else_if => "`elsif`",
        Rule::else_arm | Rule::kw_else => "`else`",
        Rule::kw_endif | Rule::end_if => "`endif`",
        Rule::kw_then => "`then`",
        Rule::for_stmt | Rule::kw_for => "`for`",
        Rule::kw_in => "`in`",
        Rule::kw_do => "`do`",
        Rule::kw_endfor => "`endfor`",
        Rule::while_stmt | Rule::kw_while => "`while`",
        Rule::kw_endwhile => "`endwhile`",
        Rule::return_stmt | Rule::kw_return => "`return`",
        Rule::break_stmt | Rule::kw_break => "`break`",
        Rule::continue_stmt | Rule::kw_continue => "`continue`",
        Rule::next_if_stmt | Rule::kw_next => "`next if`",
        Rule::lambda_def | Rule::kw_lambda => "`lambda`",
        Rule::note_stmt => "quoted English step",
        Rule::lambda_body => "lambda body",
        Rule::old_lambda_def => "`name(params) := expression`",
        Rule::c_decl_stmt | Rule::c_type => "C type name",
        Rule::assign_stmt | Rule::assign_op => "assignment operator",
        Rule::expr_stmt => "call",
        Rule::expr | Rule::binary | Rule::postfix_expr => "expression",
        Rule::op_lor
        | Rule::op_land
        | Rule::op_bor
        | Rule::op_bxor
        | Rule::op_band
        | Rule::op_eq
        | Rule::op_ne
        | Rule::op_ne_alt
        | Rule::op_le
        | Rule::op_ge
        | Rule::op_lt
        | Rule::op_gt
        | Rule::op_shl
        | Rule::op_shr
        | Rule::op_add
        | Rule::op_sub
        | Rule::op_pow
        | Rule::op_mul
        | Rule::op_div
        | Rule::op_mod
        | Rule::op_mod_word
        | Rule::infix_start => "operator",
        Rule::op_plus_minus
        | Rule::op_neg
        | Rule::op_pos
        | Rule::op_not
        | Rule::op_bnot
        | Rule::prefix_start
        | Rule::c_cast => "operand",
        Rule::accessor | Rule::field_name => "`.field`",
        Rule::bracket => "`[`",
        Rule::postfix_start => "`.field` or `[`",
        Rule::slice_tail => "`:`",
        Rule::part_tail => "`+:`",
        Rule::cast | Rule::cast_type => "sized cast",
        Rule::sized_type => "sized type such as 32'U",
        Rule::sized_literal | Rule::float_literal | Rule::int_literal => "literal",
        Rule::int_suffix => "integer suffix",
        Rule::call | Rule::callee | Rule::call_args => "call",
        Rule::name => "name",
        Rule::arg_list => "arguments",
        Rule::param_list => "parameter name",
        Rule::concat => "`{`",
        Rule::paren => "`(`",
        Rule::ident => "name",
        Rule::keyword => "keyword",
        _ => "token",
    }
}
