# bench/lkp-ncompare.rb DIR...: lkp-tests' ncompare engine (LKP_SRC's
# lib/compare.rb, Compare::Comparer) on plain _result_root dirs, for
# bench/lkp-ratio.sh.  sbin/ncompare finds result roots only through lkp's
# result database (axes from job.yaml under /lkp/result); here each DIR is
# one, its matrix.json loaded as lkp's NMResultRoot loads it and its commit
# axis its basename, in the order given.  This is perfbot's glue, not lkp
# code: lkp's code is only read from LKP_SRC.
require "#{ENV.fetch('LKP_SRC')}/lib/compare"

class BenchResultRoot
  attr_reader :axes, :path

  def initialize(path)
    @path = File.realpath(path)
    @axes = { 'commit' => File.basename(@path) }
  end

  def to_s = @path
  def mresult_root_path = @path
  def eql?(other) = @axes.eql?(other.axes)
  def hash = @axes.hash

  def matrix
    m = try_load_json File.join(@path, 'matrix.json')
    matrix_fill_missing_zeros m if m
  end

  def complete_matrix(m = nil)
    m ||= matrix
    if m['last_state.is_incomplete_run']
      m = deepcopy(m)
      filter_incomplete_run m
    end
    m
  end
end

comparer = Compare::Comparer.new
comparer.set_mresult_roots(ARGV.map { |d| BenchResultRoot.new d })
        .set_compare_axis_keys(['commit'])
        .set_sort_mresult_roots(false)
comparer.compare
